import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// This member's side of the group's games: the group challenges they take part in (decided
/// here, like personal ones, from their own blocks, by `settleChallenges`), what the group
/// store has of their part, the settled weeks booked into their coin ledger, and the games as
/// the group store last showed them.
///
/// Booking a week is one write transaction in which the ledger's one-entry-per-cause rule holds,
/// so a week is booked once whatever runs it again; a participant's part is reported until the
/// group store has it as it stands here.
extension LocalStore {
    /// Adds a group challenge this member takes part in. The same challenge of the same group
    /// again changes nothing (returns false); another challenge with this id, or one with a
    /// `problem`, is refused.
    @discardableResult
    public func addGroupChallenge(_ challenge: Challenge, group: GroupCode, createdAt: Date) throws(StoreError)
        -> Bool
    {
        try addShared(challenge, group: group, openToAll: false, createdAt: createdAt)
    }

    /// Adds a challenge open to everyone on the group store that this user joined, under the same
    /// rules as `addGroupChallenge`.
    @discardableResult
    public func addOpenChallenge(_ challenge: Challenge, createdAt: Date) throws(StoreError) -> Bool {
        try addShared(challenge, group: nil, openToAll: true, createdAt: createdAt)
    }

    private func addShared(_ challenge: Challenge, group: GroupCode?, openToAll: Bool, createdAt: Date)
        throws(StoreError) -> Bool
    {
        if let problem = challenge.problem { throw .invalidValue(problem) }
        let rule = String(decoding: (try? JSONEncoder().encode(challenge.rule)) ?? Data(), as: UTF8.self)
        return try write { db in
            if let stored = try Self.challenges(db, undecidedOnly: false).first(where: {
                $0.challenge.id == challenge.id
            }) {
                guard stored.groupCode == group, stored.openToAll == openToAll else {
                    throw StoreError.invalidValue(
                        "You have another challenge \(challenge.id) already; it cannot be joined here.")
                }
                return false
            }
            try db.execute(
                sql: """
                    INSERT INTO challenge (id, rule, first_day, days, reward, penalty, created_at, starts_at, group_code,
                        open_to_all)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    challenge.id, rule, challenge.firstDay.dayNumber, challenge.days, challenge.reward,
                    challenge.penalty, Self.milliseconds(createdAt), challenge.startsAt.map(Self.milliseconds),
                    group?.value, openToAll,
                ])
            return true
        }
    }

    /// What the group store should hear about one of this member's group challenges.
    public struct PendingReport: Hashable, Sendable {
        public var challenge: StoredChallenge
        public var state: ParticipantState
        public var daysKept: Int

        /// The mark recorded once the group store has it.
        public var mark: String { "\(state.rawValue) \(daysKept)" }
    }

    /// The member's challenges in `group` whose part, as it stands on `today`, the group store
    /// has not been told yet.
    public func pendingReports(group: GroupCode, today: LocalDate) throws(StoreError) -> [PendingReport] {
        try pendingReports(today: today) { $0.groupCode == group }
    }

    /// The challenges open to all this user joined whose part, as it stands on `today`, the group
    /// store has not been told yet.
    public func pendingOpenReports(today: LocalDate) throws(StoreError) -> [PendingReport] {
        try pendingReports(today: today) { $0.openToAll }
    }

    private func pendingReports(today: LocalDate, of kind: @escaping @Sendable (StoredChallenge) -> Bool)
        throws(StoreError) -> [PendingReport]
    {
        try read { db in
            try Self.challenges(db, undecidedOnly: false).filter(kind).compactMap { stored in
                let (state, days) = ParticipantProgress.report(
                    stored.challenge, outcome: stored.outcome == nil ? nil : stored.participantState,
                    decidedDay: stored.decidedDay, today: today)
                let report = PendingReport(challenge: stored, state: state, daysKept: days)
                return stored.reported == report.mark ? nil : report
            }
        }
    }

    /// Notes that the group store has this part of the challenge (or will never take it).
    public func markReported(challengeID: String, mark: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE challenge SET reported = ? WHERE id = ?", arguments: [mark, challengeID])
        }
    }

    /// Books the member's settled weeks of `group` into the coin ledger, each once (its cause is
    /// the group and the week), with a notice for each booked now. Pending weeks and other
    /// members' results are left alone. Returns the notices this call recorded.
    @discardableResult
    public func bookWeeks(_ results: [WeekResult], group: GroupCode, userID: UserID, now: Date) throws(StoreError)
        -> [Notice]
    {
        let mine = results.filter { $0.userID == userID && $0.status == .settled }
        guard !mine.isEmpty else { return [] }
        return try write { db in
            var notices: [Notice] = []
            for result in mine {
                let tally = result.tally
                var reason = "week of \(result.week): \(tally.keptDays) kept, \(tally.overDays) over"
                if tally.missingDays > 0 { reason += ", \(tally.missingDays) not sent (charged as over)" }
                guard
                    let entry = try Self.book(
                        db, cause: result.cause(group: group), asked: result.coins, reason: reason, at: now)
                else { continue }
                let amount = entry.amount >= 0 ? "+\(entry.amount)" : "-\(-entry.amount)"
                var body = "\(tally.keptDays) day\(tally.keptDays == 1 ? "" : "s") kept, \(tally.overDays) over"
                if tally.missingDays > 0 { body += ", \(tally.missingDays) not sent (charged as over)" }
                body += ": \(amount) coins."
                if entry.amount != entry.asked { body += " The week cost \(-entry.asked); that was all you had." }
                let notice = Notice(
                    kind: .weekSettled(result.week.iso8601), day: result.week.adding(days: 7),
                    title: "Week of \(result.week) settled", body: body)
                if try Self.record(db, notice, at: now) { notices.append(notice) }
            }
            return notices
        }
    }

    /// Records the notice of a change of the group's rates still to come, once for each change
    /// (its day is the first day of the week it takes effect from). Returns it when recorded now.
    @discardableResult
    public func noteRulesChange(_ change: SettlementRulesChange, now: Date) throws(StoreError) -> [Notice] {
        let rules = change.rules
        let notice = Notice(
            kind: .rulesChange("\(rules.keptDayCoins)-\(rules.overDayCoins)-\(rules.missingDays.rawValue)"),
            day: change.from, title: "New rules from the week of \(change.from)",
            body: "A kept day +\(rules.keptDayCoins) coins, a day over -\(rules.overDayCoins), days not sent "
                + (rules.missingDays == .pending ? "waited for" : "charged as over")
                + ". Weeks already begun keep the rules they began with.")
        return try write { db in try Self.record(db, notice, at: now) ? [notice] : [] }
    }

    /// Keeps what the group store last said (`kind` names what it is) for offline use.
    public func saveGameCache(code: GroupCode, kind: String, json: Data, at: Date) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO game_cache (code, kind, json, fetched_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (code, kind) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at
                    """,
                arguments: [code.value, kind, String(decoding: json, as: UTF8.self), Self.milliseconds(at)])
        }
    }

    public func gameCache(code: GroupCode, kind: String) throws(StoreError) -> (json: Data, fetchedAt: Date)? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT json, fetched_at FROM game_cache WHERE code = ? AND kind = ?",
                    arguments: [code.value, kind])
            else { return nil }
            let json: String = try row.checked("json", in: "game_cache")
            return (Data(json.utf8), Self.date(milliseconds: try row.checked("fetched_at", in: "game_cache")))
        }
    }
}
