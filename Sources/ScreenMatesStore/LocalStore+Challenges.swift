import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// A challenge as the store keeps it: the challenge and, once decided, how it ended.
public struct StoredChallenge: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable, Codable {
        case kept, broken, forfeited
    }

    public var challenge: Challenge
    public var createdAt: Date
    public var outcome: Outcome?
    public var decidedAt: Date?
    public var decidedDay: LocalDate?
    /// The group of a group challenge (nil: a personal one).
    public var groupCode: GroupCode?
    /// What the group store has of this participant's part (`ParticipantReportMark`), if any.
    public var reported: String?
    /// What it does when its app comes to the front while its rule forbids it.
    public var whenOpened: OpenedAction = .off
    /// Whether it is a copy of a challenge open to everyone on the group store (its part is
    /// reported there).
    public var openToAll = false

    /// The participant's state in the group's words.
    public var participantState: ParticipantState {
        switch outcome {
        case .kept: .finished
        case .broken: .failed
        case .forfeited: .forfeited
        case nil: .stillIn
        }
    }
}

/// A challenge the home holds that makes no sense — a copy of a group's challenge taken before
/// rules read from a group store were checked, say: never judged, reported nor shown; named on
/// the debug panel.
public struct LeftOutChallenge: Hashable, Sendable {
    public var id: String
    public var reason: String

    public init(id: String, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// A badge earned, with the day its condition first held and when it was recorded.
public struct EarnedBadge: Hashable, Sendable {
    public var kind: BadgeKind
    public var day: LocalDate
    public var at: Date
}

/// Challenges, coins and badges, decided exactly once.
///
/// Everything is decided inside one write transaction — the outcome written only where none
/// is, a coin entry inserted only for a cause not booked yet, a badge only for a kind not
/// earned yet, a notice only for a key not recorded yet — so monitors, dashboards and commands
/// deciding at once, or again after a restart, decide each thing once between them.
extension LocalStore {
    /// Coins a badge brings, by difficulty.
    public static func coins(for badge: BadgeKind) -> Int {
        switch badge.difficulty {
        case .bronze: 10
        case .silver: 25
        case .gold: 50
        }
    }

    /// Adds a challenge; an id taken already, or a challenge with a `problem`, is refused.
    public func addChallenge(_ challenge: Challenge, createdAt: Date) throws(StoreError) {
        if let problem = challenge.problem { throw .invalidValue(problem) }
        let rule = String(decoding: (try? JSONEncoder().encode(challenge.rule)) ?? Data(), as: UTF8.self)
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO challenge (id, rule, first_day, days, reward, penalty, created_at, starts_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    challenge.id, rule, challenge.firstDay.dayNumber, challenge.days, challenge.reward,
                    challenge.penalty, Self.milliseconds(createdAt), challenge.startsAt.map(Self.milliseconds),
                ])
        }
    }

    /// Sets what a challenge does when its app is opened; false when no challenge has this id.
    @discardableResult
    public func setWhenOpened(challengeID: String, _ action: OpenedAction) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(
                sql: "UPDATE challenge SET when_opened = ? WHERE id = ?", arguments: [action.rawValue, challengeID])
            return db.changesCount > 0
        }
    }

    /// Every challenge, newest first (but those left out: `challengesLeftOut`).
    public func challenges() throws(StoreError) -> [StoredChallenge] {
        try read { db in try Self.challenges(db, undecidedOnly: false) }
    }

    /// The challenges held here that make no sense, left out of everything else.
    public func challengesLeftOut() throws(StoreError) -> [LeftOutChallenge] {
        try read { db in try Self.readChallenges(db, undecidedOnly: false).leftOut }
    }

    /// The coin ledger, oldest entry first.
    public func coinLedger() throws(StoreError) -> CoinLedger {
        try read { db in try Self.ledger(db) }
    }

    /// The badges earned, oldest first.
    public func badges() throws(StoreError) -> [EarnedBadge] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT kind, earned_day, earned_at FROM badge ORDER BY earned_day, kind")
                .compactMap {
                    row in
                    // A kind this version does not know (written by a newer one) is left out.
                    guard let kind = BadgeKind(rawValue: try row.checked("kind", in: "badge")) else { return nil }
                    return EarnedBadge(
                        kind: kind, day: LocalDate(dayNumber: try row.checked("earned_day", in: "badge")),
                        at: Self.date(milliseconds: try row.checked("earned_at", in: "badge")))
                }
        }
    }

    /// What giving a challenge up did.
    public enum Forfeit: Hashable, Sendable {
        /// It ended as forfeited, with its notice (nil if another process recorded it first).
        case forfeited(Notice?)
        /// It had ended already: nothing changed.
        case alreadyDecided(StoredChallenge.Outcome)
        /// No challenge has this id.
        case unknown
    }

    /// Gives a challenge up: it ends as forfeited and costs its penalty (a loss takes at most
    /// the balance). A challenge decided already stays as it ended.
    public func forfeit(challengeID: String, at instant: Date, day: LocalDate) throws(StoreError) -> Forfeit {
        try write { db in
            guard
                let stored = try Self.challenges(db, undecidedOnly: false).first(where: {
                    $0.challenge.id == challengeID
                })
            else { return .unknown }
            if let outcome = stored.outcome { return .alreadyDecided(outcome) }
            return .forfeited(try Self.decide(db, stored.challenge, .forfeited, at: instant, day: day))
        }
    }

    /// Decides what the blocks decide now: challenges broken or kept, and badges earned by the
    /// finished days and the challenges kept. Returns the notices this call recorded first
    /// (they also wait, untoasted, for the first dashboard to show them).
    ///
    /// - Parameter goal: the daily goal in force on a day that has no history record yet.
    @discardableResult
    public func settleChallenges(calendar: DayCalendar, currentGoal: Int, now: Date) throws(StoreError) -> [Notice] {
        try write { db in
            var notices: [Notice] = []
            let judge = ChallengeJudge(calendar: calendar)
            let undecided = try Self.challenges(db, undecidedOnly: true)
            if !undecided.isEmpty {
                let goals = Dictionary(
                    try Self.history(from: nil, db).map { ($0.date, $0.goalBlocks) }, uniquingKeysWith: { a, _ in a })
                let others = try Self.otherMachinesTotals(db)
                for stored in undecided {
                    let challenge = stored.challenge
                    let span =
                        calendar.start(of: challenge.firstDay)..<calendar.start(of: challenge.lastDay.adding(days: 1))
                    let events = try Self.events(in: span, db)
                    let verdict = judge.verdict(
                        challenge, events: events, goal: { goals[$0] ?? currentGoal },
                        otherMachines: { others[$0]?.viceBlocks ?? 0 }, now: now)
                    switch verdict {
                    case .broken(let at, let day):
                        notices += try Self.decide(db, challenge, .broken, at: at, day: day).map { [$0] } ?? []
                    case .kept(let at):
                        notices +=
                            try Self.decide(db, challenge, .kept, at: at, day: challenge.lastDay).map { [$0] } ?? []
                    case .notStarted, .running, .refused:
                        break
                    }
                }
            }
            notices += try Self.awardBadges(db, now: now)
            return notices
        }
    }

    // MARK: - Inside a transaction

    static func challenges(_ db: Database, undecidedOnly: Bool) throws -> [StoredChallenge] {
        try readChallenges(db, undecidedOnly: undecidedOnly).kept
    }

    /// Day numbers that make a date: ten thousand years either side of 1970.
    private static let dayNumbers = -3_652_500...3_652_500

    /// The challenges that make sense, and why the others are left out: a rule this version
    /// cannot read, a first day beyond any calendar, a `Challenge.problem`.
    static func readChallenges(_ db: Database, undecidedOnly: Bool) throws
        -> (kept: [StoredChallenge], leftOut: [LeftOutChallenge])
    {
        let table = "challenge"
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT * FROM challenge \(undecidedOnly ? "WHERE outcome IS NULL" : "") ORDER BY created_at DESC, id")
        var leftOut: [LeftOutChallenge] = []
        let kept = try rows.compactMap { row -> StoredChallenge? in
            let id: String = try row.checked("id", in: table)
            let ruleText: String = try row.checked("rule", in: table)
            guard let rule = try? JSONDecoder().decode(ChallengeRule.self, from: Data(ruleText.utf8)) else {
                leftOut.append(LeftOutChallenge(id: id, reason: "its rule cannot be read"))
                return nil
            }
            let firstDay: Int = try row.checked("first_day", in: table)
            guard Self.dayNumbers.contains(firstDay) else {
                leftOut.append(LeftOutChallenge(id: id, reason: "its first day is day \(firstDay)"))
                return nil
            }
            let outcomeText: String? = try row.checkedIfPresent("outcome", in: table)
            let decidedAt: Int64? = try row.checkedIfPresent("decided_at", in: table)
            let decidedDay: Int? = try row.checkedIfPresent("decided_day", in: table)
            let startsAt: Int64? = try row.checkedIfPresent("starts_at", in: table)
            let groupText: String? =
                row.hasColumn("group_code") ? try row.checkedIfPresent("group_code", in: table) : nil
            let reported: String? = row.hasColumn("reported") ? try row.checkedIfPresent("reported", in: table) : nil
            let whenOpened: String? =
                row.hasColumn("when_opened") ? try row.checkedIfPresent("when_opened", in: table) : nil
            let openToAll: Bool =
                row.hasColumn("open_to_all") ? try row.checkedIfPresent("open_to_all", in: table) ?? false : false
            let challenge = Challenge(
                id: id, rule: rule, firstDay: LocalDate(dayNumber: firstDay), days: try row.checked("days", in: table),
                reward: try row.checked("reward", in: table), penalty: try row.checked("penalty", in: table),
                startsAt: startsAt.map(date(milliseconds:)))
            if let problem = challenge.problem {
                leftOut.append(LeftOutChallenge(id: id, reason: problem))
                return nil
            }
            return StoredChallenge(
                challenge: challenge, createdAt: date(milliseconds: try row.checked("created_at", in: table)),
                outcome: outcomeText.flatMap(StoredChallenge.Outcome.init(rawValue:)),
                decidedAt: decidedAt.map(date(milliseconds:)),
                decidedDay: decidedDay.flatMap { Self.dayNumbers.contains($0) ? LocalDate(dayNumber: $0) : nil },
                groupCode: groupText.flatMap { try? GroupCode(validating: $0) }, reported: reported,
                whenOpened: whenOpened.flatMap(OpenedAction.init(rawValue:)) ?? .off, openToAll: openToAll)
        }
        return (kept, leftOut)
    }

    private static func ledger(_ db: Database) throws -> CoinLedger {
        let table = "coin_transaction"
        return CoinLedger(
            try Row.fetchAll(db, sql: "SELECT * FROM coin_transaction ORDER BY at, cause").map { row in
                CoinTransaction(
                    cause: try row.checked("cause", in: table), asked: try row.checked("asked", in: table),
                    amount: try row.checked("amount", in: table), reason: try row.checked("reason", in: table),
                    at: date(milliseconds: try row.checked("at", in: table)))
            })
    }

    /// Books `asked` coins for `cause` unless it is booked already; the entry booked, if any.
    static func book(_ db: Database, cause: String, asked: Int, reason: String, at: Date) throws
        -> CoinTransaction?
    {
        var ledger = try ledger(db)
        guard let entry = ledger.book(cause: cause, asked: asked, reason: reason, at: at) else { return nil }
        try db.execute(
            sql: "INSERT INTO coin_transaction (cause, asked, amount, reason, at) VALUES (?, ?, ?, ?, ?)",
            arguments: [entry.cause, entry.asked, entry.amount, entry.reason, milliseconds(entry.at)])
        return entry
    }

    /// Writes the outcome where none is, books its coins and records its notice; the notice
    /// when this call decided it.
    private static func decide(
        _ db: Database, _ challenge: Challenge, _ outcome: StoredChallenge.Outcome, at: Date, day: LocalDate
    ) throws -> Notice? {
        try db.execute(
            sql: """
                UPDATE challenge SET outcome = ?, decided_at = ?, decided_day = ?
                WHERE id = ? AND outcome IS NULL
                """, arguments: [outcome.rawValue, milliseconds(at), day.dayNumber, challenge.id])
        guard db.changesCount > 0 else { return nil }
        let title: String
        var body: String
        switch outcome {
        case .kept:
            let entry = try book(
                db, cause: "challenge \(challenge.id)", asked: challenge.reward,
                reason: "challenge \(challenge.id) kept", at: at)
            title = "Challenge kept: \(challenge.summary)"
            body = "+\(entry?.amount ?? 0) coins."
        case .broken, .forfeited:
            let entry = try book(
                db, cause: "challenge \(challenge.id)", asked: -challenge.penalty,
                reason: "challenge \(challenge.id) \(outcome.rawValue)", at: at)
            title =
                outcome == .broken
                ? "Challenge broken: \(challenge.summary)" : "Challenge given up: \(challenge.summary)"
            let lost = -(entry?.amount ?? 0)
            body = "-\(lost) coins."
            if lost < challenge.penalty { body += " The penalty was \(challenge.penalty); that was all you had." }
        }
        let notice = Notice(
            kind: .challenge(id: challenge.id, outcome: outcome.rawValue), day: day, title: title, body: body)
        return try record(db, notice, at: at) ? notice : nil
    }

    /// Records the badges the history and the kept challenges have earned and not recorded yet,
    /// each with its coins and notice.
    private static func awardBadges(_ db: Database, now: Date) throws -> [Notice] {
        let kept = try challenges(db, undecidedOnly: false).compactMap { stored -> (Challenge, LocalDate)? in
            guard stored.outcome == .kept, let day = stored.decidedDay else { return nil }
            return (stored.challenge, day)
        }
        let earned = BadgeRules.earned(records: try memberHistory(db), keptChallenges: kept)
        let known = Set(try String.fetchAll(db, sql: "SELECT kind FROM badge"))
        var notices: [Notice] = []
        for kind in BadgeKind.allCases where !known.contains(kind.rawValue) {
            guard let day = earned[kind] else { continue }
            try db.execute(
                sql: "INSERT INTO badge (kind, earned_day, earned_at) VALUES (?, ?, ?)",
                arguments: [kind.rawValue, day.dayNumber, milliseconds(now)])
            let entry = try book(
                db, cause: "badge \(kind.rawValue)", asked: coins(for: kind), reason: "badge \(kind.rawValue)", at: now)
            let notice = Notice(
                kind: .badge(kind.rawValue), day: day, title: "Badge earned: \(kind.title)",
                body: "\(kind.detail.prefix(1).uppercased() + kind.detail.dropFirst()). +\(entry?.amount ?? 0) coins.")
            if try record(db, notice, at: now) { notices.append(notice) }
        }
        return notices
    }

    /// The finished days as the member's, with their other machines' counted in and the streaks
    /// counted again over them: what the badges are earned on, as the figures show them.
    static func memberHistory(_ db: Database) throws -> [DayRecord] {
        let own = try history(from: nil, db)
        let others = try otherMachinesTotals(db)
        guard !others.isEmpty, let state = try dayState(db), let settings = try settings(db), settings.group != nil,
            let lastReset = state.lastReset
        else { return own }
        let lastFinished = lastReset.adding(days: -1)
        let days = DayRecord.memberDays(
            own, otherMachines: others, from: state.trackingStart, through: lastFinished,
            goal: settings.dailyGoalBlocks, blockSeconds: settings.rules.blockSeconds,
            exchangeRate: settings.rules.exchangeRate)
        return StreakManager(trackingStart: state.trackingStart).withStreaks(days, through: lastFinished)
    }

    /// Records a notice for the first dashboard to show; whether this call recorded it.
    static func record(_ db: Database, _ notice: Notice, at: Date) throws -> Bool {
        let json = String(decoding: try JSONEncoder().encode(notice), as: UTF8.self)
        try db.execute(
            sql: "INSERT OR IGNORE INTO notice (key, day, at, shown, toasted, notice) VALUES (?, ?, ?, 1, 0, ?)",
            arguments: [notice.key, notice.day.dayNumber, milliseconds(at), json])
        return db.changesCount > 0
    }
}
