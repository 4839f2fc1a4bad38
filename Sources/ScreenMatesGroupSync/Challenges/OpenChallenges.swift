import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// This user's side of the challenges open to everyone on their group store: publishing one (the
/// store's owner only), joining one, telling the store how their part stands, and reading the
/// boards back.
///
/// As with a group's challenge, the user's part is decided only in their home, from their own
/// blocks (`ChallengeReferee`), on a copy made when they join; the store only ever learns it, and
/// what they tell it is idempotent (a decided state is kept as first reported), so any number of
/// commands and dashboards may run it.
public struct OpenChallenges: Sendable {
    public let local: LocalStore
    public let userID: UserID
    /// The name the user joins under (unique on a board).
    public let name: DisplayName
    public let clock: any AppClock
    public let calendar: DayCalendar

    /// Where the boards as last read are cached: the games cache is keyed by a group's code and
    /// a kind, and this kind is no group's, so any code does.
    static let cacheCode = try? GroupCode(validating: "222222")
    static let cacheKind = "open-challenges"

    public init(local: LocalStore, userID: UserID, name: DisplayName, clock: any AppClock, calendar: DayCalendar) {
        self.local = local
        self.userID = userID
        self.name = name
        self.clock = clock
        self.calendar = calendar
    }

    /// The user's side of the open challenges once they take part in one: nil before (nothing to
    /// tell the store or read back), and nil without a display name.
    public static func joined(local: LocalStore, settings: UserSettings, clock: any AppClock, calendar: DayCalendar)
        -> OpenChallenges?
    {
        guard let name = settings.displayName, ((try? local.challenges()) ?? []).contains(where: \.openToAll) else {
            return nil
        }
        return OpenChallenges(local: local, userID: settings.userID, name: name, clock: clock, calendar: calendar)
    }

    /// Publishes `challenge` under a fresh id (eight characters: a group's have six, personal
    /// ones four). The publisher does not join it by publishing.
    public func publish(_ challenge: Challenge, in store: any GroupStore) async throws(GroupStoreError) -> Challenge {
        try await GroupGames.sharing(challenge, idLength: 8) { shared throws(GroupStoreError) in
            try await store.publishOpenChallenge(shared, publisherID: userID, now: clock.now())
        }
    }

    /// Joins the open challenge `id`; this home keeps a copy and decides it. Joining on its first
    /// day counts the blocks from now on.
    public func join(id: String, in store: any GroupStore) async throws(GroupStoreError) -> Challenge {
        let now = clock.now()
        let challenge = try await store.joinOpenChallenge(
            id: id, userID: userID, name: name, today: calendar.day(containing: now), now: now)
        let copy = GroupGames.participantCopy(of: challenge, joinedAt: now, calendar: calendar)
        do {
            try local.addOpenChallenge(copy, createdAt: now)
        } catch {
            throw .invalidValue(error.message)
        }
        return copy
    }

    /// Makes a copy of every open challenge the store has the user in and this home lacks (joined
    /// from another home, a home restored), decides what the blocks decide, tells the store each
    /// part that changed, and reads the boards back (cached). With `exchanging` false, only reads.
    public func exchange(with store: any GroupStore, exchanging: Bool = true) async throws(GroupStoreError)
        -> OpenBoards
    {
        var (boards, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.openChallengesWithMark(userID: userID)
        }
        if exchanging {
            let now = clock.now()
            for board in boards.boards {
                guard let mine = board.participants.first(where: \.isMe) else { continue }
                _ = try? local.addOpenChallenge(
                    GroupGames.participantCopy(of: board.challenge, joinedAt: mine.joinedAt, calendar: calendar),
                    createdAt: mine.joinedAt)
            }
            _ = try? ChallengeReferee.settle(local, calendar: calendar, now: now)
            var changed = false
            let pending = (try? local.pendingOpenReports(today: calendar.day(containing: now))) ?? []
            for entry in pending {
                let report = ParticipantReport(
                    challengeID: entry.challenge.challenge.id, userID: userID, state: entry.state,
                    daysKept: entry.daysKept, decidedAt: entry.state.isDecided ? entry.challenge.decidedAt : nil)
                do {
                    if try await store.reportOpenParticipant(report) { changed = true }
                } catch {
                    // Out of reach or busy: told next time. Refused (the challenge gone): there
                    // is no one to tell, so it is not asked again.
                    if error.isTransient { throw error }
                }
                try? local.markReported(challengeID: report.challengeID, mark: entry.mark)
            }
            if changed {
                (boards, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
                    try await store.openChallengesWithMark(userID: userID)
                }
            }
        }
        let read = OpenBoards(boards: boards.boards, mark: boards.mark, fetchedAt: clock.now(), leftOut: leftOut)
        if let code = Self.cacheCode, let json = try? JSONEncoder().encode(read) {
            try? local.saveGameCache(code: code, kind: Self.cacheKind, json: json, at: read.fetchedAt)
        }
        return read
    }

    /// The boards as last read, for offline use.
    public func cached() -> OpenBoards? { Self.cached(in: local) }

    /// The boards `local` last read, for offline use and the dashboard's screens.
    public static func cached(in local: LocalStore) -> OpenBoards? {
        guard let code = cacheCode, let entry = try? local.gameCache(code: code, kind: cacheKind) else { return nil }
        return try? JSONDecoder().decode(OpenBoards.self, from: entry.json)
    }
}

/// The open challenges' boards as a command or the dashboard read them.
public struct OpenBoards: Hashable, Sendable, Codable {
    public var boards: [OpenChallengeBoard]
    /// The store's open change mark, read before the boards.
    public var mark: Int64
    public var fetchedAt: Date
    /// Rows the store held that could not be right, left out.
    public var leftOut: [LeftOutRow]
    /// Read from the cache: the store was out of reach.
    public var offline = false

    public init(boards: [OpenChallengeBoard], mark: Int64, fetchedAt: Date, leftOut: [LeftOutRow] = []) {
        self.boards = boards
        self.mark = mark
        self.fetchedAt = fetchedAt
        self.leftOut = leftOut
    }

    /// For a line under a listing: nil when the store was read.
    public var offlineNote: String? {
        offline
            ? "The group store is out of reach: the open challenges are as last seen (as of \(TimeFormat.iso8601(fetchedAt)))."
            : nil
    }
}
