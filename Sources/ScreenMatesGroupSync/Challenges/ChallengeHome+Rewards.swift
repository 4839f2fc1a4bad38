import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore

/// Coins, badges and the group's weeks: `screenmates coins | badges | week`.
extension ChallengeHome {
    /// The coin ledger, after the group's settled weeks are booked into it (each once; as far
    /// as the group store can be reached).
    public func coinLedger() async throws(AppError) -> CoinLedger {
        _ = try? await games()
        do { return try store.coinLedger() } catch { throw AppError(error) }
    }

    /// The badges earned, each with the day it was earned.
    public func earnedBadges() throws(AppError) -> [BadgeKind: LocalDate] {
        do {
            return Dictionary(try store.badges().map { ($0.kind, $0.day) }, uniquingKeysWith: { a, _ in a })
        } catch {
            throw AppError(error)
        }
    }

    /// The group's weeks and each member's settled result, after an exchange with the group
    /// store (or as last seen). Refused outside a group, and when no week was ever seen.
    public func weekSummary() async throws(AppError) -> WeekSummary {
        guard let games = try await games(), let snapshot = games.snapshot else {
            throw AppError(
                settings.group == nil
                    ? "You are not in a group: weeks are settled for a group's members."
                    : "The group store is out of reach and no week has been seen yet; try again when it is back.")
        }
        return WeekSummary(
            snapshot: snapshot, names: try await memberNames(), me: settings.userID,
            today: calendar.day(containing: clock.now()),
            unsyncedDays: (try? store.syncState().unsyncedDays) ?? 0, offline: games.offline)
    }
}
