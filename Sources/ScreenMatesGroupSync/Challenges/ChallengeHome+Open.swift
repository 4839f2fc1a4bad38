import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// Challenges open to everyone on the group store: `screenmates challenge publish`, `list
/// --open-to-all`, and `join` / `show` of one of them.
extension ChallengeHome {
    /// The user's side of the open challenges on the group store this home uses.
    public func openChallenges() throws(AppError) -> (open: OpenChallenges, location: GroupStoreLocation) {
        guard let name = settings.displayName else { throw AppError("This home has no display name yet.") }
        return (
            OpenChallenges(local: store, userID: settings.userID, name: name, clock: clock, calendar: calendar),
            try groupStore.location(home: home, settings: settings)
        )
    }

    /// Publishes a challenge under `rule` for everyone on the group store, starting at the next
    /// day start (or now). Only the store's owner may.
    public func publish(_ rule: ChallengeRule, days: Int, reward: Int, penalty: Int, now startsNow: Bool)
        async throws(AppError) -> Challenge
    {
        let instant = clock.now()
        let today = calendar.day(containing: instant)
        let challenge = Challenge(
            id: "open", rule: rule, firstDay: startsNow ? today : today.adding(days: 1), days: days, reward: reward,
            penalty: penalty, startsAt: startsNow ? instant : nil)
        if let problem = challenge.problem { throw .usage(problem) }
        let (open, location) = try openChallenges()
        do throws(GroupStoreError) {
            return try await location.using(creating: true) { store throws(GroupStoreError) in
                try await open.publish(challenge, in: store)
            }
        } catch {
            throw Self.said(error)
        }
    }

    /// The open challenges and their boards, after telling the store how the user's parts stand
    /// (with `exchanging`); as last seen, marked offline, when the store is out of reach.
    public func openBoards(exchanging: Bool = true) async throws(AppError) -> OpenBoards {
        let (open, location) = try openChallenges()
        do throws(GroupStoreError) {
            return try await location.using { store throws(GroupStoreError) in
                try await open.exchange(with: store, exchanging: exchanging)
            }
        } catch {
            guard error.isTransient else { throw AppError(error.message) }
            var cached = open.cached() ?? OpenBoards(boards: [], mark: 0, fetchedAt: clock.now())
            cached.offline = true
            return cached
        }
    }

    /// Joins the open challenge `id` (any case), until its first day ends.
    public func joinOpen(id: String) async throws(AppError) -> Challenge {
        let (open, location) = try openChallenges()
        do throws(GroupStoreError) {
            return try await location.using { store throws(GroupStoreError) in
                try await open.join(id: id.lowercased(), in: store)
            }
        } catch {
            throw Self.said(error)
        }
    }

    /// Every open challenge, joined or not, newest first, each with its board.
    public func openSummaries(_ boards: OpenBoards) throws(AppError) -> [ChallengeSummary] {
        ChallengeSummary.openToAll(
            stored: try challenges(), boards: boards.boards, calendar: calendar, now: clock.now())
    }

    /// A store's refusal as the command says it: one out of reach is to be tried again (nothing
    /// waits to be sent, as profile updates do).
    private static func said(_ error: GroupStoreError) -> AppError {
        guard case .unavailable(let location, let detail) = error else { return AppError(error.message) }
        return AppError("The group store \(location) cannot be reached (\(detail)); try again once it can.")
    }
}
