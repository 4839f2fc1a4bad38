import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// A home opened for the challenge, coin, badge, ranking and week commands. Opening it decides
/// every challenge the recorded blocks decide (`ChallengeReferee`), so what a command reads is
/// never a challenge still open that a block already broke.
public struct ChallengeHome: Sendable {
    public let home: HomeDirectory
    /// Where the group store is, found only when a command asks for the group.
    public let groupStore: GroupStoreChoice
    public let store: LocalStore
    /// The profile: it has a display name.
    public let settings: UserSettings
    public let clock: any AppClock
    /// The zone the user's days are counted in.
    public let timeZone: TimeZoneSource
    public let calendar: DayCalendar

    /// Opens `home`, which has a profile with a name, on the clock `speed` and `startAt` choose
    /// (or the one a running dashboard publishes), and settles its challenges.
    public static func open(
        home: HomeDirectory, groupStore: GroupStoreChoice, speed: Double?, startAt: Date?, timeZone: TimeZoneSource
    ) throws(AppError) -> ChallengeHome {
        try home.requireData()
        do {
            let store = try home.openStore()
            guard let settings = try store.settings(), settings.displayName != nil else {
                throw AppError("\(home.path) has no profile yet: run `screenmates setup --name NAME` first.")
            }
            let clock = try ClockSource.choose(
                speed: speed, startAt: startAt, store: store, publish: false, timeZone: timeZone
            ).clock
            let logger = LogSetup.bootstrap(home: home)
            try ChallengeReferee(clock: clock, timeZone: timeZone, logger: logger).settle(store)
            return ChallengeHome(
                home: home, groupStore: groupStore, store: store, settings: settings, clock: clock,
                timeZone: timeZone,
                calendar: DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour))
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    /// Every challenge of the user's, decided or not.
    public func challenges() throws(AppError) -> [StoredChallenge] {
        do { return try store.challenges() } catch { throw AppError(error) }
    }

    /// The user's group and its games, against the group store it was joined through; nil
    /// outside a group.
    public func groupGames() throws(AppError) -> (games: GroupGames, location: GroupStoreLocation)? {
        guard let membership = settings.group else { return nil }
        let location = try groupStore.location(home: home, settings: settings)
        return (
            GroupGames(
                local: store, membership: membership, userID: settings.userID, clock: clock, calendar: calendar),
            location
        )
    }

    /// What the group's games look like now: exchanged with the group store (settling, booking,
    /// reporting) or, with `exchanging` false, only read; the cached ones, marked offline, when
    /// the store is out of reach. Nil outside a group.
    public func games(exchanging: Bool = true) async throws(AppError) -> GamesRead? {
        guard let (games, location) = try groupGames() else { return nil }
        do throws(GroupStoreError) {
            let snapshot = try await location.using { store throws(GroupStoreError) in
                exchanging ? try await games.exchange(with: store).snapshot : try await games.fetch(from: store)
            }
            return GamesRead(snapshot: snapshot, offline: false)
        } catch {
            guard error.isTransient else { throw AppError(error.message) }
            return GamesRead(snapshot: games.cached(), offline: true)
        }
    }

    /// Every challenge of the user's, and the group's ones they have not joined, newest first;
    /// those open to all with their boards from `open`.
    public func summaries(_ games: GamesRead?, open: OpenBoards? = nil) throws(AppError) -> [ChallengeSummary] {
        ChallengeSummary.all(
            stored: try challenges(), games: games?.snapshot, settings: settings, calendar: calendar, now: clock.now(),
            openBoards: open?.boards ?? [])
    }

    /// The names of the group's members by user id, as the group store has them (or as cached);
    /// only the user's own when neither can be read, none outside a group.
    public func memberNames() async throws(AppError) -> [UserID: String] {
        guard settings.group != nil else { return [:] }
        let actions = GroupActions(
            local: store, location: try groupStore.location(home: home, settings: settings), clock: clock,
            timeZone: timeZone)
        guard let shown = try? await actions.show() else {
            return [settings.userID: settings.displayName?.value ?? "you"]
        }
        return Dictionary(
            shown.snapshot.members.map { ($0.userID, $0.displayName.value) }, uniquingKeysWith: { first, _ in first })
    }
}
