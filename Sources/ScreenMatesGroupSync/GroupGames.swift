import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// This member's side of the group's games, against one group store: settling the weeks that
/// closed and booking this member's results into their ledger, telling the group how their
/// group challenges stand and how many coins and badges they have, and reading it all back.
///
/// Everything it writes is idempotent — a week is booked once by its cause, a participant's
/// decided state is kept as first reported, a standing is stored only with a newer version — so
/// running it from any number of commands and dashboards, again after a restart or an outage,
/// changes each thing once. A participant's own part is decided only in their home, from their
/// own blocks (`ChallengeReferee`); the group store only ever learns it.
public struct GroupGames: Sendable {
    public let local: LocalStore
    public let membership: GroupMembership
    public let userID: UserID
    public let clock: any AppClock
    public let calendar: DayCalendar

    /// How many weeks before the current one the week results cover: twelve, fewer in a group
    /// so large that they would hold more than `resultsRead` (one at 10,000 members), so that what
    /// a member reads stays bounded whatever the group's size.
    public static let weeksShown = 12
    /// The most week results of the weeks before the current one read at a time.
    public static let resultsRead = 12_000
    static let snapshotKind = "games"
    static let standingKind = "standing-sent"

    public init(
        local: LocalStore, membership: GroupMembership, userID: UserID, clock: any AppClock, calendar: DayCalendar
    ) {
        self.local = local
        self.membership = membership
        self.userID = userID
        self.clock = clock
        self.calendar = calendar
    }

    private var code: GroupCode { membership.code }

    // MARK: - Exchanging

    /// Settles and books the weeks, reports this member's challenges and standing, and reads
    /// the games back (caching them, with the rows the store left out of any of it). Returns them
    /// with the notices it recorded first. With `previous` (read from this store), only what
    /// changed since is read.
    ///
    /// A write the store cannot take now (`.busy`: a group someone's open transaction holds) does
    /// not keep the games from being read: the writes after it are left for the next exchange
    /// (each would wait out the same lock), and it comes back as `waiting`. With `settling`
    /// false the weeks are left as they are (someone else's change: see `GroupLinkStep.settles`), and
    /// `known`, the games' marks the store just said (`GroupLook.games`), stands for asking it.
    public func exchange(
        with store: any GroupStore, previous: GroupGamesSnapshot? = nil, settling: Bool = true,
        known: GroupGamesMarks? = nil
    ) async throws(GroupStoreError) -> (snapshot: GroupGamesSnapshot, notices: [Notice], waiting: GroupStoreError?) {
        let (outcome, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await exchangeReading(store, previous: previous, settling: settling, known: settling ? nil : known)
        }
        var snapshot = outcome.snapshot
        snapshot.leftOut = leftOut
        save(snapshot)
        return (snapshot, outcome.notices, outcome.waiting)
    }

    private func exchangeReading(
        _ store: any GroupStore, previous: GroupGamesSnapshot?, settling: Bool, known: GroupGamesMarks?
    )
        async throws(GroupStoreError) -> (snapshot: GroupGamesSnapshot, notices: [Notice], waiting: GroupStoreError?)
    {
        let now = clock.now()
        let today = calendar.day(containing: now)
        var waiting: GroupStoreError?
        do {
            if settling { try await store.settleWeeks(code: code, today: today, now: now) }
        } catch {
            guard case .busy = error else { throw error }
            waiting = error
        }
        var snapshot = try await fetch(from: store, previous: previous, known: known)
        var notices = try here(local.bookWeeks(snapshot.weeks, group: code, userID: userID, now: now))
        if let change = snapshot.schedule.upcoming(after: today) {
            notices += try here(local.noteRulesChange(change, now: now))
        }
        // Whatever this member takes part in here, their home decides: a copy made now if the
        // one here went missing (created or joined elsewhere, a home cleared).
        for board in snapshot.boards {
            guard let mine = board.participants.first(where: { $0.userID == userID }) else { continue }
            _ = try? local.addGroupChallenge(
                Self.participantCopy(of: board.challenge, joinedAt: mine.joinedAt, calendar: calendar),
                group: code, createdAt: mine.joinedAt)
        }
        notices += (try? ChallengeReferee.settle(local, calendar: calendar, now: now)) ?? []
        var changed = false
        for pending in try here(local.pendingReports(group: code, today: today)) where waiting == nil {
            let report = ParticipantReport(
                challengeID: pending.challenge.challenge.id, userID: userID, state: pending.state,
                daysKept: pending.daysKept, decidedAt: pending.state.isDecided ? pending.challenge.decidedAt : nil)
            do {
                if try await store.reportParticipant(report, code: code) { changed = true }
            } catch {
                // Busy or out of reach: told next time. Refused (the challenge or the member gone
                // from the group): there is no one to tell, so it is not asked again.
                if case .busy = error {
                    waiting = error
                    continue
                }
                if error.isTransient { throw error }
            }
            try? local.markReported(challengeID: report.challengeID, mark: pending.mark)
        }
        if waiting == nil {
            do {
                if try await reportStanding(to: store, now: now) { changed = true }
            } catch {
                guard case .busy = error else { throw error }
                waiting = error
            }
        }
        if changed { snapshot = try await fetch(from: store, previous: snapshot) }
        notices +=
            (try? local.claim(deliver: mateFailures(in: snapshot), countAsSent: [], at: now, toasted: false)) ?? []
        return (snapshot, notices, waiting)
    }

    /// A notice for each group-mate who broke a group challenge this member takes part in: once
    /// per mate and challenge (dated on the challenge's first day, so it is not due again the
    /// next day), waiting for the first dashboard to show it.
    func mateFailures(in snapshot: GroupGamesSnapshot) -> [Notice] {
        snapshot.boards.filter { board in board.participants.contains { $0.userID == userID } }.flatMap { board in
            let challenge = board.challenge.challenge
            return board.participants.filter { $0.userID != userID && $0.state == .failed }.map { mate in
                Notice(
                    kind: .mateChallenge(id: challenge.id, userID: mate.userID), day: challenge.firstDay,
                    title: "\(SafeText.displayable(mate.name)) broke a challenge",
                    body: "\(SafeText.displayable(mate.name)) is out of \(challenge.summary).")
            }
        }
    }

    /// Reads the games without writing anything to the group store, and caches them. With
    /// `previous` (read from this store), only what changed since is read and merged into it,
    /// unless a row was taken away since, the weeks shown moved, the rules changed or a row could
    /// not be right: then all of it. When the store says none of the games changed since
    /// `previous` was read (`GroupGamesMarks`: `known` when it was just said, else asked), that
    /// is all: `previous` is complete up to the group's change number as it is.
    public func fetch(
        from store: any GroupStore, previous: GroupGamesSnapshot? = nil, known marksSaid: GroupGamesMarks? = nil
    ) async throws(GroupStoreError) -> GroupGamesSnapshot {
        let now = clock.now()
        let today = calendar.day(containing: now)
        var known: GroupChangeMarks?
        if let previous, let mark = previous.mark, previous.leftOut.isEmpty,
            previous.firstWeek
                == Self.weeks(of: previous.rules, today: today, members: previous.coins.count).lowerBound,
            let games = try await Self.gamesMarks(said: marksSaid, asking: store, code: code)
        {
            if games.gamesUnchanged(since: mark) {
                var same = previous
                same.mark = games.marks.mark
                same.fetchedAt = now
                save(same)
                return same
            }
            known = games.marks
        }
        var (snapshot, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            let marks: GroupChangeMarks
            if let known { marks = known } else { marks = try await store.changeMarks(code: code) }
            let schedule = try await store.settlementRules(code: code)
            // How many weeks are read depends on how many members there are: as last read, or
            // read now (the members with coins: every member whose client has synced).
            var coins: [MemberCoins]?
            if previous == nil { coins = try await store.memberCoins(code: code, changedAfter: nil) }
            let members = previous?.coins.count ?? coins?.count ?? 0
            let weeks = Self.weeks(of: schedule.rules, today: today, members: members)
            var seen: Int64?
            if let previous, let mark = previous.mark, previous.leftOut.isEmpty, previous.schedule == schedule,
                previous.firstWeek == weeks.lowerBound, marks.canCatchUp(from: mark)
            {
                seen = mark
            }
            let boards = try await store.groupChallenges(code: code, changedAfter: seen)
            if coins == nil { coins = try await store.memberCoins(code: code, changedAfter: seen) }
            var snapshot = GroupGamesSnapshot(
                boards: boards, coins: coins ?? [], rules: schedule.rules,
                ruleChanges: schedule.changes,
                weeks: try await store.weekResults(code: code, weeks: weeks, changedAfter: seen), fetchedAt: now,
                mark: marks.mark, firstWeek: weeks.lowerBound)
            if let previous, seen != nil {
                var merged = previous.merging(boards: snapshot.boards, coins: snapshot.coins, weeks: snapshot.weeks)
                merged.mark = marks.mark
                merged.fetchedAt = now
                merged.schedule = schedule
                snapshot = merged
            }
            return snapshot
        }
        if !leftOut.isEmpty, previous != nil {
            // A row that cannot be right: all of it is read, where it is named.
            return try await fetch(from: store)
        }
        snapshot.leftOut = leftOut
        save(snapshot)
        return snapshot
    }

    /// The games' marks: as the store just said them, else asked of it.
    private static func gamesMarks(said: GroupGamesMarks?, asking store: any GroupStore, code: GroupCode)
        async throws(GroupStoreError) -> GroupGamesMarks?
    {
        if let said { return said }
        return try await store.gamesMarks(code: code)
    }

    /// The weeks the games show on `today` under `rules` in a group of `members`: the current one
    /// and the twelve before, or as many of those as hold `resultsRead` results (one at least).
    static func weeks(of rules: SettlementRules, today: LocalDate, members: Int) -> ClosedRange<LocalDate> {
        let current = rules.firstDay(ofWeekContaining: today)
        let shown = min(weeksShown, max(1, resultsRead / max(1, members)))
        return current.adding(days: -7 * shown)...current
    }

    /// The games as last read, for offline use.
    public func cached() -> GroupGamesSnapshot? {
        guard let entry = try? local.gameCache(code: code, kind: Self.snapshotKind) else { return nil }
        return try? JSONDecoder().decode(GroupGamesSnapshot.self, from: entry.json)
    }

    private func save(_ snapshot: GroupGamesSnapshot) {
        guard let json = try? JSONEncoder().encode(snapshot) else { return }
        try? local.saveGameCache(code: code, kind: Self.snapshotKind, json: json, at: snapshot.fetchedAt)
    }

    /// Sends the member's coins, badges and public-ranking choice when they differ from what
    /// was sent last; whether the store took them.
    private func reportStanding(to store: any GroupStore, now: Date) async throws(GroupStoreError) -> Bool {
        guard let settings = try here(local.settings()), let name = settings.displayName else { return false }
        let coins = try here(local.coinLedger()).balance
        let badges = try here(local.badges()).count
        let mark = "\(coins) \(badges) \(settings.publicRanking) \(name.value)"
        if let sent = try? local.gameCache(code: code, kind: Self.standingKind),
            String(decoding: sent.json, as: UTF8.self) == mark
        {
            return false
        }
        let version = try here(local.nextMemberVersion())
        let stored = try await store.reportStanding(
            StandingReport(
                userID: userID, displayName: name, coins: coins, badges: badges, isPublic: settings.publicRanking,
                version: version, updatedAt: now))
        try? local.saveGameCache(code: code, kind: Self.standingKind, json: Data(mark.utf8), at: now)
        return stored
    }

    // MARK: - Creating and joining

    /// Shares a new challenge with the group, under a fresh id, with this member as its first
    /// participant; their home keeps a copy and decides it. Returns the challenge as shared.
    public func create(_ challenge: Challenge, in store: any GroupStore) async throws(GroupStoreError) -> Challenge {
        let shared = try await Self.sharing(challenge, idLength: 6) { shared throws(GroupStoreError) in
            try await store.createGroupChallenge(shared, code: code, creatorID: userID, now: clock.now())
        }
        _ = try here(local.addGroupChallenge(shared, group: code, createdAt: clock.now()))
        return shared
    }

    /// Shares `challenge` through `share` under a fresh id of `idLength` characters without
    /// look-alikes, drawing another while the store has the id already (five tries).
    static func sharing(
        _ challenge: Challenge, idLength: Int, _ share: (Challenge) async throws(GroupStoreError) -> Void
    ) async throws(GroupStoreError) -> Challenge {
        var shared = challenge
        var generator = SystemRandomNumberGenerator()
        for attempt in 1...5 {
            shared.id = String(
                (0..<idLength).map { _ in "abcdefghjkmnpqrstuvwxyz23456789".randomElement(using: &generator)! })
            do {
                try await share(shared)
                return shared
            } catch {
                guard case .challengeExists = error, attempt < 5 else { throw error }
            }
        }
        return shared
    }

    /// Joins a challenge of the group; this member's home keeps a copy and decides it. Joining on
    /// its first day counts the blocks from now on.
    public func join(id: String, in store: any GroupStore) async throws(GroupStoreError) -> Challenge {
        let now = clock.now()
        let challenge = try await store.joinGroupChallenge(
            id: id, code: code, userID: userID, today: calendar.day(containing: now), now: now)
        let copy = Self.participantCopy(of: challenge, joinedAt: now, calendar: calendar)
        do {
            try local.addGroupChallenge(copy, group: code, createdAt: now)
        } catch {
            throw .invalidValue(error.message)
        }
        return copy
    }

    /// The participant's own copy of a group challenge: one joined once its first day had
    /// begun counts the blocks from the moment of joining.
    static func participantCopy(of shared: GroupChallenge, joinedAt: Date, calendar: DayCalendar) -> Challenge {
        participantCopy(of: shared.challenge, joinedAt: joinedAt, calendar: calendar)
    }

    /// The participant's own copy of a shared challenge (a group's, or one open to all).
    static func participantCopy(of shared: Challenge, joinedAt: Date, calendar: DayCalendar) -> Challenge {
        var copy = shared
        if joinedAt > calendar.start(of: copy.firstDay) {
            copy.startsAt = max(copy.startsAt ?? joinedAt, joinedAt)
        }
        return copy
    }

    /// A local store failure met while exchanging, as the group-store error the callers handle.
    private func here<T>(_ body: @autoclosure () throws(StoreError) -> T) throws(GroupStoreError) -> T {
        do {
            return try body()
        } catch {
            throw .unavailable(location: local.path, detail: error.message)
        }
    }
}
