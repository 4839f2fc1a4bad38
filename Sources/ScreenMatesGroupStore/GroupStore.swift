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
    /// The creator writes from `machine` (see `upsertProfile(_:machine:)`).
    func createGroup(dailyGoalBlocks: Int, creator: MemberProfile, machine: MachineID?, now: Date)
        async throws(GroupStoreError) -> Group

    /// The group with this code, or `nil` when there is none (which counts as a failed attempt
    /// for the rate limit of `userID`).
    func group(code: GroupCode, userID: UserID, now: Date) async throws(GroupStoreError) -> Group?

    /// Adds `member` to the group (or updates them if already in it). Fails with
    /// `.unknownCode` (counted for the rate limit), `.nameTaken`, or `.tooManyAttempts`.
    ///
    /// A member already in the group is updated exactly as `upsertProfile` would (only by a
    /// newer version; a stale one changes nothing and the join still succeeds). Names are
    /// unique by `DisplayName.uniquenessKey` within the group. The member writes from `machine`
    /// (see `upsertProfile(_:machine:)`).
    func join(code: GroupCode, member: MemberProfile, machine: MachineID?, now: Date) async throws(GroupStoreError)
        -> Group

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
    ///
    /// The profile is `machine`'s: its version is compared with that machine's last, its blocks
    /// are that machine's, and the member's row shows the sum of their machines' blocks on the
    /// newest day any of them reported (`GroupStoreRules.sumOfBlocks`). Its name renames the
    /// member only when it is not the name this machine sent last, so a machine still sending an
    /// old name does not undo a rename made on another. `machine` nil is the member's `first`
    /// machine, which versions from before machines write as: it is made on its first write
    /// (within the quota), and once one of the member's machines has taken it over
    /// (`addMachine(…, adoptingFirst: true)`) a write from it is refused with `.invalidValue`
    /// saying to update. A machine the store does not know gives `.unknownMachine`, a removed one
    /// `.machineRetired`.
    @discardableResult
    func upsertProfile(_ profile: MemberProfile, machine: MachineID?) async throws(GroupStoreError) -> Bool

    /// The members of the group whose row changed after change number `changedAfter` (every
    /// member when it is nil), in the order they joined. A member's row changes with their
    /// profile and with their coins and badges (`reportStanding`).
    func members(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [MemberProfile]

    /// Stores per-day totals as `machine`'s of each total's member; for each (member, machine,
    /// date) a total replaces the stored one only if its version is newer. Every reader sees the
    /// member's total for a date: the sum of their machines' (`GroupStoreRules.sumOfBlocks`), with
    /// the highest of their goals and versions, so a total sent again, in any order, from any of
    /// the member's machines, counts once. Totals of users who are not members of the group are
    /// ignored; `machine` is as in `upsertProfile(_:machine:)`.
    func upsertDayTotals(_ totals: [DayTotal], code: GroupCode, machine: MachineID?) async throws(GroupStoreError)

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

    // MARK: The member's machines

    /// Adds a machine of the member's under `name` (unique among their machines in use, else
    /// `.machineNameTaken`). A machine the store knows already changes nothing (`.known`), unless
    /// it was removed (`.machineRetired`). With `adoptingFirst`, while the member has a `first`
    /// machine in use, the machine takes it over with every day it wrote (`.adopted`; no sum
    /// changes), and `first` writes no more. Quotas: `GroupStoreRules.machinesPerMember` in use,
    /// `machinesKeptPerMember` in all (`.invalidValue`). A store that checks identities lets only
    /// the member do it.
    @discardableResult
    func addMachine(_ id: MachineID, name: MachineName, userID: UserID, adoptingFirst: Bool)
        async throws(GroupStoreError) -> MachineAdded

    /// The member's machines, removed ones too, in the order they were added. Only the member
    /// may read them.
    func machines(userID: UserID) async throws(GroupStoreError) -> [MemberMachine]

    /// Renames one of the member's machines in use (`.unknownMachine`, `.machineRetired`,
    /// `.machineNameTaken`); nil is their `first`.
    func renameMachine(_ id: MachineID?, to name: MachineName, userID: UserID) async throws(GroupStoreError)

    /// The member's own machines' day totals in the group for days in `days` (inclusive),
    /// ordered by date, then machine (`first` first): what each machine sent, of which every
    /// reader sees the sum. Only the member may read them; `.notAMember` outside the group.
    func machineDayTotals(code: GroupCode, userID: UserID, days: ClosedRange<LocalDate>)
        async throws(GroupStoreError) -> [MachineDayTotal]

    /// Removes one of the member's machines (nil: their `first`): it writes no more, and what it
    /// wrote stays counted. Returns whether it was in use (removing it again changes nothing).
    @discardableResult
    func retireMachine(_ id: MachineID?, userID: UserID) async throws(GroupStoreError) -> Bool

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

extension GroupStore {
    /// Creates a group as the creator's `first` machine.
    public func createGroup(dailyGoalBlocks: Int, creator: MemberProfile, now: Date) async throws(GroupStoreError)
        -> Group
    {
        try await createGroup(dailyGoalBlocks: dailyGoalBlocks, creator: creator, machine: nil, now: now)
    }

    /// Joins as the member's `first` machine.
    public func join(code: GroupCode, member: MemberProfile, now: Date) async throws(GroupStoreError) -> Group {
        try await join(code: code, member: member, machine: nil, now: now)
    }

    /// Stores the profile as the member's `first` machine's.
    @discardableResult
    public func upsertProfile(_ profile: MemberProfile) async throws(GroupStoreError) -> Bool {
        try await upsertProfile(profile, machine: nil)
    }

    /// Stores the totals as their members' `first` machines'.
    public func upsertDayTotals(_ totals: [DayTotal], code: GroupCode) async throws(GroupStoreError) {
        try await upsertDayTotals(totals, code: code, machine: nil)
    }

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
