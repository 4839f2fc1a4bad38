import Foundation
import ScreenMatesCore

/// The shared source of truth for groups and member profiles: a SQLite file on one host, or a
/// PostgreSQL server when members are on different machines.
///
/// Everything a member shares goes through here: the profile fields and per-day totals, never
/// an app name. Writes carry a per-member version, and a write whose version is not newer than
/// the stored one changes nothing, so a late, stale update can never overwrite a newer one.
/// Implementations must be safe to use from many processes at once.
///
/// What every implementation keeps alike (the shared contract suite checks it; the limits are
/// in `GroupStoreRules`):
/// - Instants are kept to the millisecond; callers must not rely on finer precision.
/// - A code that names no group fails with `.unknownCode` everywhere except `group(code:…)`,
///   which returns `nil`; only `group(code:…)` and `join` count it for the rate limit.
/// - The rate limit: after 5 wrong codes by one user id within 10 minutes, `group(code:…)` and
///   `join` by that user id fail with `.tooManyAttempts` — even with a right code — until the
///   oldest of those failures is 10 minutes old. Refused attempts are not counted; a successful
///   lookup does not wipe earlier failures.
/// - Invalid input (a goal outside 1…96, a count outside its bounds in `GroupStoreRules`, a date
///   outside the years 1–9999) fails with `.invalidValue` and changes nothing. (User ids are
///   `UserID`s, valid once made.)
/// - Every row a read returns has been checked on the way in (`StoredGroupRow`): a row that
///   cannot be right is left out, the rest still comes back, and the rows left out are reported
///   to a caller reading inside `LeftOutRows.collecting`. Nothing a store holds can make a
///   reader trap.
public protocol GroupStore: Sendable {
    /// Creates a group with a fresh, unused code and makes `creator` its first member.
    /// `dailyGoalBlocks` must be in `UsageRules.dailyGoalRange`, else `.invalidValue`.
    func createGroup(dailyGoalBlocks: Int, creator: MemberProfile, now: Date) async throws(GroupStoreError) -> Group

    /// The group with this code, or `nil` when there is none (which counts as a failed attempt
    /// for the rate limit of `userID`).
    func group(code: GroupCode, userID: UserID, now: Date) async throws(GroupStoreError) -> Group?

    /// Adds `member` to the group (or updates them if already in it). Fails with
    /// `.unknownCode` (counted for the rate limit), `.nameTaken`, or `.tooManyAttempts`.
    ///
    /// A member already in the group is updated exactly as `upsertProfile` would (only by a
    /// newer version; a stale one changes nothing and the join still succeeds). Names are
    /// unique by `DisplayName.uniquenessKey` within the group.
    func join(code: GroupCode, member: MemberProfile, now: Date) async throws(GroupStoreError) -> Group

    /// Removes the member, with their day totals, challenge parts and week results (leaving
    /// withdraws what they shared); the last member out removes the group. Leaving a group one is not in changes nothing and
    /// succeeds, so a retried leave is harmless; an unknown code fails with `.unknownCode`.
    func leave(code: GroupCode, userID: UserID) async throws(GroupStoreError)

    /// Stores the profile if its version is newer than the stored one. Returns whether it was
    /// stored. Fails with `.notAMember` when the user is not in the group, `.nameTaken` when
    /// another member has the name.
    ///
    /// The profile names no group: it is stored in every group `profile.userID` is a member of
    /// (the app keeps one), all or nothing — a name taken in one of them changes none. The
    /// result is whether any of them stored it. A user in no group gets `.notAMember` naming the
    /// group they joined last; one who never joined a group in this store gets `.invalidValue`.
    @discardableResult
    func upsertProfile(_ profile: MemberProfile) async throws(GroupStoreError) -> Bool

    /// The members of the group whose row changed after change number `changedAfter` (every
    /// member when it is nil), in the order they joined. A member's row changes with their
    /// profile and with their coins and badges (`reportStanding`).
    func members(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [MemberProfile]

    /// Stores per-day totals; for each (member, date) a total replaces the stored one only if
    /// its version is newer. Totals of users who are not members of the group are ignored.
    func upsertDayTotals(_ totals: [DayTotal], code: GroupCode) async throws(GroupStoreError)

    /// The group's per-day totals for days in `days` (inclusive), ordered by date, then user id.
    func dayTotals(code: GroupCode, days: ClosedRange<LocalDate>) async throws(GroupStoreError) -> [DayTotal]

    /// Each member's vice blocks added up over the days in `days` (inclusive), by user id;
    /// members without totals in those days are absent. What weekly and monthly leaderboards
    /// need, without moving every day's row. With `changedAfter`, only the sums of the members
    /// who have a total in `days` that changed after that change number.
    func blockSums(code: GroupCode, days: ClosedRange<LocalDate>, changedAfter: Int64?) async throws(GroupStoreError)
        -> [UserID: Int]

    /// A number that changes whenever anything in the group changes; cheap to read.
    func changeMark(code: GroupCode) async throws(GroupStoreError) -> Int64

    /// The change mark, and the change that last took a row away (`GroupChangeMarks`): what a
    /// reader that has seen change number N needs to know whether the rows changed after N tell
    /// it everything. Read it before the rows changed after N: then no change is missed.
    func changeMarks(code: GroupCode) async throws(GroupStoreError) -> GroupChangeMarks

    /// The change marks with the change number of the last write that changed the group's games
    /// (`GroupGamesMarks`), read at once: what lets a reader whose games are complete up to change
    /// number N skip reading them again when none of them changed since. Nil from a store that
    /// does not keep the games' own number (then the games are read at every change).
    func gamesMarks(code: GroupCode) async throws(GroupStoreError) -> GroupGamesMarks?

    /// What a reader that has seen change number `after` needs to catch up, at once
    /// (`GroupChanges`): the change marks, read first, and — when they say it can catch up — the
    /// members whose row changed after `after` and the sums over `weekDays` and `monthDays` of the
    /// members whose totals there changed. A server answers it in one call.
    func readChanges(
        code: GroupCode, after: Int64, weekDays: ClosedRange<LocalDate>?, monthDays: ClosedRange<LocalDate>?
    ) async throws(GroupStoreError) -> GroupChanges

    /// Yields (with no value) whenever the group may have changed — possibly spuriously, never
    /// missing a change that happened while the stream is being consumed. Ends when the task
    /// consuming it is cancelled. After it yields, read `changeMark` and fetch what changed.
    ///
    /// It also yields once at the start, so a consumer need not order its first read against
    /// the subscription: every change after `changes` is called is signalled. Yields that pile
    /// up while the consumer is busy are merged into one.
    func changes(code: GroupCode) -> AsyncStream<Void>

    /// How `changes(code:)` learns of changes now.
    var following: ChangeFollowing { get }

    /// Ends what the store runs in the background — what watches for its `changes(code:)`
    /// streams, which end, and a server's connections — and returns once all of it is gone, so
    /// that nothing the store started outlives its user. Whoever opens a store closes it, once,
    /// when done with it: what is shared between openers (a server's pool) ends with the last
    /// of them. Nothing is called on a store after it is closed.
    func close() async

    // MARK: Group challenges

    /// Shares a new challenge with the group, with its creator as first participant (joining at
    /// `now`). Fails with `.notAMember` when the creator is not in the group, `.challengeExists`
    /// when the group has a challenge with that id (draw another), `.invalidValue` for a
    /// challenge that `GroupStoreRules.check` refuses. Moves the change mark.
    func createGroupChallenge(_ challenge: Challenge, code: GroupCode, creatorID: UserID, now: Date)
        async throws(GroupStoreError)

    /// Adds the member to the challenge's participants (still in, no day kept) and returns the
    /// challenge. Joining again changes nothing and succeeds. `today` is the member's day: a
    /// challenge whose first day is over can no longer be joined (`.challengeClosed`). Fails
    /// with `.unknownChallenge`, `.notAMember`. Moves the change mark when it adds someone.
    func joinGroupChallenge(id: String, code: GroupCode, userID: UserID, today: LocalDate, now: Date)
        async throws(GroupStoreError) -> GroupChallenge

    /// Records what a participant's home decided: a decided state is kept as it was first
    /// reported (a later report changes nothing), and while still in the days kept only grow
    /// (`ParticipantStanding.taking`). Returns whether anything changed (then the change mark
    /// moved). Fails with `.unknownChallenge`, or `.notAMember` when the user is not a
    /// participant.
    @discardableResult
    func reportParticipant(_ report: ParticipantReport, code: GroupCode) async throws(GroupStoreError) -> Bool

    /// The group's challenges, newest first, each with its participants (those still members)
    /// in the order they joined. A challenge whose rule this version cannot read, or that makes
    /// no sense (`StoredGroupChallenge`), is left out. With `changedAfter`, only the challenges
    /// that changed after that change number or whose participants did (a part reported, a
    /// participant renamed), each whole.
    func groupChallenges(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [GroupChallengeBoard]

    // MARK: Challenges open to all

    /// Publishes a challenge every user of the store may join, with no participant yet. Only the
    /// store's owner may (the role that owns a server's schema; the Unix owner of a shared file),
    /// else `.notStoreOwner`. Fails with `.challengeExists` when an open challenge has this id,
    /// `.invalidValue` for a challenge `GroupStoreRules.check` refuses. Moves the open mark.
    func publishOpenChallenge(_ challenge: Challenge, publisherID: UserID, now: Date) async throws(GroupStoreError)

    /// Every open challenge, newest first, each with its board (names and outcomes, in the order
    /// they joined; the asker's line marked). A challenge that cannot be right is left out and
    /// named, as is a bad line.
    func openChallenges(userID: UserID) async throws(GroupStoreError) -> [OpenChallengeBoard]

    /// Adds the user to the open challenge under `name` (unique on its board by
    /// `DisplayName.uniquenessKey`, else `.nameTakenOnBoard`) and returns it; joining again changes
    /// nothing. `today` is the user's day: once its first day is over, `.challengeClosed`. Fails
    /// with `.unknownOpenChallenge`. Moves the open mark when it adds someone.
    func joinOpenChallenge(id: String, userID: UserID, name: DisplayName, today: LocalDate, now: Date)
        async throws(GroupStoreError) -> Challenge

    /// Records what the participant's home decided, as `reportParticipant` does for a group's
    /// challenge. Fails with `.unknownOpenChallenge`, or `.notAParticipant` when the user has not
    /// joined it.
    @discardableResult
    func reportOpenParticipant(_ report: ParticipantReport) async throws(GroupStoreError) -> Bool

    /// A number that changes whenever an open challenge or a line of its board does: what a
    /// watcher polls to know when to read the boards again.
    func openChallengesMark(userID: UserID) async throws(GroupStoreError) -> Int64

    // MARK: Coins

    /// Stores a member's coins and badges if the version is newer than the stored one; moves
    /// the change mark of every group the user is in. Returns whether it was stored. A user who
    /// never joined a group in this store gets `.invalidValue`, one in no group `.notAMember`.
    @discardableResult
    func reportStanding(_ report: StandingReport) async throws(GroupStoreError) -> Bool

    /// The coins and badges of the group's members who have reported them; with
    /// `changedAfter`, of the members whose row changed after that change number.
    func memberCoins(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [MemberCoins]

    /// The ranking across everyone in the store who opted in: the first `limit` (at most
    /// `GroupStoreRules.publicRankingLimit`) by `CoinRanking`, how many opted in, and where
    /// `userID` stands when they did. Shows names, coins and badges only.
    func publicRanking(userID: UserID, limit: Int) async throws(GroupStoreError) -> PublicRanking

    // MARK: The weekly settlement

    /// The group's settlement rules and the changes to them still to come
    /// (`SettlementRules.standard` until a member sets them).
    func settlementRules(code: GroupCode) async throws(GroupStoreError) -> SettlementSchedule

    /// Sets the group's rules as of `now` (`SettlementSchedule.set`: the rates from the first
    /// week begun nowhere on Earth, at once while the member is the group's only one); the member
    /// must be in the group (`.notAMember`). The week start may change only while no week has been
    /// settled (`.invalidValue`). Answers the first day of the week the rates take effect from, nil
    /// when at once. Moves the change mark. A server takes `now` from its own clock.
    @discardableResult
    func setSettlementRules(_ rules: SettlementRules, code: GroupCode, userID: UserID, now: Date)
        async throws(GroupStoreError) -> LocalDate?

    /// Settles, once for the whole group, every member's week that has closed by `today` and is
    /// not settled yet, and every pending week whose missing days have arrived
    /// (`WeekSettlement`). One transaction: members settling at once settle each week once.
    /// Returns how many results became final. A server may hold `today` to its own clock, so a
    /// client cannot close a week early. Moves the change mark when anything was settled.
    @discardableResult
    func settleWeeks(code: GroupCode, today: LocalDate, now: Date) async throws(GroupStoreError) -> Int

    /// The group's week results (pending and settled) for weeks whose first day is in `weeks`,
    /// ordered by week, then user id; with `changedAfter`, those that changed after it.
    func weekResults(code: GroupCode, weeks: ClosedRange<LocalDate>, changedAfter: Int64?)
        async throws(GroupStoreError) -> [WeekResult]

    // MARK: The member's account

    /// What the store holds of `userID` (`MemberAccount`): their groups, their profile in each,
    /// their own day totals in the one they joined last. Empty for a member it does not know.
    /// A store that checks identities answers only the member themselves.
    func account(userID: UserID) async throws(GroupStoreError) -> MemberAccount

    /// Removes every row of `userID`'s: their memberships with their day totals, challenge parts
    /// and week results, their coins and ranking entry, their failed attempts (and, where the
    /// store checks identities, the identity itself); a group left empty goes too. Returns how
    /// many groups they left. A store that checks identities lets only the member do it.
    @discardableResult
    func deleteAccount(userID: UserID) async throws(GroupStoreError) -> Int
}

/// A group: its invite code, the daily goal its members share, and how many they are.
public struct Group: Hashable, Sendable, Codable {
    public var code: GroupCode
    public var dailyGoalBlocks: Int
    public var memberCount: Int
    public var createdAt: Date

    public init(code: GroupCode, dailyGoalBlocks: Int, memberCount: Int, createdAt: Date) {
        self.code = code
        self.dailyGoalBlocks = dailyGoalBlocks
        self.memberCount = memberCount
        self.createdAt = createdAt
    }
}

/// What a member shares with their group. `day` is the member's own date for `blocksToday`, so
/// a reader whose today is another date shows the member as idle rather than as zero.
public struct MemberProfile: Hashable, Sendable, Codable {
    /// The member's user id.
    public var userID: UserID
    public var displayName: DisplayName
    public var blocksToday: Int
    public var day: LocalDate
    public var streak: Int
    public var lastActive: Date?
    public var lastUpdated: Date
    /// Increases with every update the member makes; a write with a version that is not newer
    /// than the stored one is ignored.
    public var version: Int64

    public init(
        userID: UserID, displayName: DisplayName, blocksToday: Int, day: LocalDate, streak: Int, lastActive: Date?,
        lastUpdated: Date, version: Int64
    ) {
        self.userID = userID
        self.displayName = displayName
        self.blocksToday = blocksToday
        self.day = day
        self.streak = streak
        self.lastActive = lastActive
        self.lastUpdated = lastUpdated
        self.version = version
    }
}

/// One member's total for one finished day: what weekly and monthly leaderboards add up.
public struct DayTotal: Hashable, Sendable, Codable {
    public var userID: UserID
    public var date: LocalDate
    public var viceBlocks: Int
    public var goalBlocks: Int
    public var version: Int64

    public init(userID: UserID, date: LocalDate, viceBlocks: Int, goalBlocks: Int, version: Int64) {
        self.userID = userID
        self.date = date
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
        self.version = version
    }
}

/// Why a group-store operation failed, with what the user can do.
public enum GroupStoreError: Error, Hashable, Sendable {
    /// No group has this code.
    case unknownCode(GroupCode)
    /// Another member of the group already uses this display name (names are compared without
    /// regard to case).
    case nameTaken(DisplayName)
    /// Too many wrong codes were tried; try again after this many seconds.
    case tooManyAttempts(retryAfterSeconds: Int)
    /// The user is not a member of the group.
    case notAMember(code: GroupCode)
    /// A value out of range (a goal of 0 blocks…).
    case invalidValue(String)
    /// The store cannot be reached or used right now (missing server, locked or unreadable
    /// file); the caller keeps working from its cache and retries.
    case unavailable(location: String, detail: String)
    /// The store answered but could not take a write now: another connection holds what it
    /// needs (a PostgreSQL group's row, held by someone's open transaction past the server's
    /// lock timeout). Reads still work; the caller keeps the update and tries again.
    case busy(location: String, detail: String)
    /// The store is damaged or was written by a newer version.
    case unusable(location: String, detail: String)
    /// The group has no challenge with this id.
    case unknownChallenge(String)
    /// The group has a challenge with this id already.
    case challengeExists(String)
    /// The challenge's first day is over: it can no longer be joined.
    case challengeClosed(String)
    /// No challenge open to all on this store has this id.
    case unknownOpenChallenge(String)
    /// The user has not joined this open challenge.
    case notAParticipant(String)
    /// Someone on the open challenge's board already goes by this name (compared without regard
    /// to case).
    case nameTakenOnBoard(DisplayName, challengeID: String)
    /// Only the store's owner may do this; the detail says who that is.
    case notStoreOwner(String)
    /// The store does not take this member as who they say they are (another login or secret
    /// holds the user id); the detail says what to do.
    case identityRefused(String)
    /// The member's user id is from before the store checked identities, and waits for the
    /// store's owner to bind it to this login; updates are kept meanwhile.
    case awaitingApproval(location: String, userID: UserID, role: String, fingerprint: String)

    public var message: String {
        switch self {
        case .unknownCode(let code):
            return "There is no group with the code \(code). Check the code with the person who shared it."
        case .nameTaken(let name):
            return
                "Someone in this group is already called \(name). Choose another display name (`screenmates setup --name`)."
        case .tooManyAttempts(let seconds):
            let minutes = max(1, (seconds + 59) / 60)
            return "Too many wrong group codes. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
        case .notAMember(let code):
            return "You are not a member of group \(code). Join it with `screenmates group join \(code)`."
        case .invalidValue(let detail):
            return detail
        case .unavailable(let location, let detail):
            return
                "The group store \(location) cannot be reached (\(detail)). Working offline; updates are kept and sent when it is back."
        case .busy(let location, let detail):
            return "The group store \(location) is busy: \(detail). Updates are kept and sent once it takes them."
        case .unusable(let location, let detail):
            return "The group store \(location) cannot be used: \(detail)."
        case .unknownChallenge(let id):
            return
                "Your group has no challenge \(SafeText.displayable(id)); `screenmates challenge list` shows the group's."
        case .challengeExists(let id):
            return "Your group has a challenge \(SafeText.displayable(id)) already."
        case .challengeClosed(let id):
            return "Challenge \(SafeText.displayable(id)) has begun: it could be joined until its first day ended."
        case .unknownOpenChallenge(let id):
            return
                "The group store has no challenge \(SafeText.displayable(id)) open to all; `screenmates challenge list --open-to-all` shows them."
        case .nameTakenOnBoard(let name, let id):
            return
                "Someone on the board of challenge \(SafeText.displayable(id)) is already called \(name); choose another display name (`screenmates setup --name`) to join it."
        case .notAParticipant(let id):
            return
                "You have not joined challenge \(SafeText.displayable(id)); join it with `screenmates challenge join`."
        case .identityRefused(let detail), .notStoreOwner(let detail):
            return detail
        case .awaitingApproval(let location, let userID, let role, let fingerprint):
            let safe = SafeText.displayable(String(fingerprint.prefix(16)))
            return
                "You were in this group before \(location) checked who is who: it waits for its owner to confirm "
                + "that user id \(userID) is you (`screenmates group claims --approve \(userID) --role \(role) "
                + "--fingerprint \(safe)`, run by the owner; tell them your fingerprint \(safe)). Your updates are "
                + "kept and sent once it is confirmed."
        }
    }

    /// Whether the caller should keep its updates and try again later.
    public var isTransient: Bool {
        switch self {
        case .unavailable, .busy, .awaitingApproval: true
        default: false
        }
    }
}

/// Where a group's change numbers stand: `mark` (as `changeMark`), and `lastRemoval`, the change
/// that last took a row away (a member who left, with their day totals, challenge parts and week
/// results; a group's challenges with it). A reader that has seen `mark` N may merge the rows
/// changed after N into what it has when `lastRemoval <= N`; else it reads the group whole.
public struct GroupChangeMarks: Hashable, Sendable {
    public var mark: Int64
    public var lastRemoval: Int64

    public init(mark: Int64, lastRemoval: Int64) {
        self.mark = mark
        self.lastRemoval = lastRemoval
    }

    /// Whether a reader that has seen change number `seen` can catch up from the rows changed
    /// after it.
    public func canCatchUp(from seen: Int64) -> Bool { lastRemoval <= seen && seen <= mark }
}

/// Where a group's change numbers stand (`GroupChangeMarks`), with `games`: the change that last
/// changed what its games show (a challenge or a participant written or taken away, a week result,
/// a member's coins and badges, a member joining, leaving or renamed, the settlement rules).
public struct GroupGamesMarks: Hashable, Sendable {
    public var marks: GroupChangeMarks
    public var games: Int64

    public init(marks: GroupChangeMarks, games: Int64) {
        self.marks = marks
        self.games = games
    }

    /// Whether games read complete up to change number `seen` are still complete up to `marks.mark`:
    /// nothing of the games changed after `seen`.
    public func gamesUnchanged(since seen: Int64) -> Bool { games <= seen && seen <= marks.mark }
}

/// What changed in a group after a change number a reader has seen (`GroupStore.readChanges`).
public struct GroupChanges: Hashable, Sendable {
    /// Read before the rows: when they say the reader cannot catch up, the rest is empty.
    public var marks: GroupChangeMarks
    public var members: [MemberProfile]
    public var weekBlocks: [UserID: Int]
    public var monthBlocks: [UserID: Int]
    /// The change number of the last write that changed the group's games, read after the marks,
    /// when the store says it in the same answer (`GroupGamesMarks`); nil when it does not.
    public var games: Int64?

    public init(
        marks: GroupChangeMarks, members: [MemberProfile] = [], weekBlocks: [UserID: Int] = [:],
        monthBlocks: [UserID: Int] = [:], games: Int64? = nil
    ) {
        self.marks = marks
        self.members = members
        self.weekBlocks = weekBlocks
        self.monthBlocks = monthBlocks
        self.games = games
    }

    /// The games' marks this answer holds, when the store said them.
    public var gamesMarks: GroupGamesMarks? { games.map { GroupGamesMarks(marks: marks, games: $0) } }
}

extension GroupStore {
    /// The marks, then each read of what changed in turn: for a store where a call costs little.
    public func readChanges(
        code: GroupCode, after: Int64, weekDays: ClosedRange<LocalDate>?, monthDays: ClosedRange<LocalDate>?
    ) async throws(GroupStoreError) -> GroupChanges {
        var changes = GroupChanges(marks: try await changeMarks(code: code))
        guard changes.marks.canCatchUp(from: after), changes.marks.mark != after else { return changes }
        changes.members = try await members(code: code, changedAfter: after)
        if let weekDays { changes.weekBlocks = try await blockSums(code: code, days: weekDays, changedAfter: after) }
        if let monthDays {
            changes.monthBlocks = try await blockSums(code: code, days: monthDays, changedAfter: after)
        }
        return changes
    }

    /// Every member of the group, in the order they joined.
    public func members(code: GroupCode) async throws(GroupStoreError) -> [MemberProfile] {
        try await members(code: code, changedAfter: nil)
    }

    /// Each member's vice blocks added up over `days`.
    public func blockSums(code: GroupCode, days: ClosedRange<LocalDate>) async throws(GroupStoreError) -> [UserID: Int]
    {
        try await blockSums(code: code, days: days, changedAfter: nil)
    }

    /// The group's challenges, newest first.
    public func groupChallenges(code: GroupCode) async throws(GroupStoreError) -> [GroupChallengeBoard] {
        try await groupChallenges(code: code, changedAfter: nil)
    }

    /// The coins and badges of the group's members who have reported them.
    public func memberCoins(code: GroupCode) async throws(GroupStoreError) -> [MemberCoins] {
        try await memberCoins(code: code, changedAfter: nil)
    }

    /// The group's week results for weeks whose first day is in `weeks`.
    public func weekResults(code: GroupCode, weeks: ClosedRange<LocalDate>) async throws(GroupStoreError)
        -> [WeekResult]
    {
        try await weekResults(code: code, weeks: weeks, changedAfter: nil)
    }
}

extension GroupStore {
    /// Runs `body`, then closes the store however `body` ends: for an opener that uses the store
    /// once (a command, an action).
    public func closing<T, E: Error>(after body: () async throws(E) -> T) async throws(E) -> T {
        do {
            let result = try await body()
            await close()
            return result
        } catch {
            await close()
            throw error
        }
    }
}

/// How a group store's change signal learns of changes: told by the store at once (inotify on a
/// shared file, LISTEN on a server), or by asking for the change number at a steady pace (a
/// server whose notifications do not reach the client, such as one behind a connection pooler).
public enum ChangeFollowing: Hashable, Sendable, CustomStringConvertible {
    case live
    case polling(every: Duration)

    /// `live`, or `polling every 2 s`: what the debug panel and `status --json` say.
    public var description: String {
        switch self {
        case .live: return "live"
        case .polling(let interval): return "polling every \(interval.components.seconds) s"
        }
    }
}

extension GroupStore {
    /// Told at once, unless a store says otherwise.
    public var following: ChangeFollowing { .live }
}
