import Foundation

/// Decides, from the current state and the notices already recorded, what to say now and when
/// the next notice that depends only on time will be due — so the dashboard can sleep until
/// then instead of polling.
///
/// The rules (SPEC §2 "Notifications"):
/// - today's progress crossing 75 %, 90 % and the limit, each once a day; on a jump past
///   several, only the highest is shown and the lower ones count as sent;
/// - the daily reset, once a day, with yesterday's result and the streak;
/// - a group-mate going over the limit, once per member per day, at most three at a time;
/// - the evening summary at 22:00 naming who is furthest over;
/// - at most `dailyBudget` shown a day; past it, and while notices are off, a due notice is
///   counted as sent without being shown, so it never arrives late.
///
/// It is a pure function: recording what it decided (exactly once, across processes) is the
/// caller's part.
public enum NotificationScheduler {
    /// A group-mate's figures, as the group store last had them.
    public struct Mate: Hashable, Sendable {
        public var userID: UserID
        public var name: String
        /// Vice blocks today, `nil` when the member has no figures for today.
        public var blocksToday: Int?

        public init(userID: UserID, name: String, blocksToday: Int?) {
            self.userID = userID
            self.name = name
            self.blocksToday = blocksToday
        }
    }

    public struct Input: Hashable, Sendable {
        public var now: Date
        public var calendar: DayCalendar
        public var today: LocalDate
        public var blocksUsed: Int
        public var goal: Int
        public var streak: Int
        /// The finished day before today, when there is one.
        public var yesterday: DayRecord?
        /// The user's name, for the evening summary.
        public var myName: String
        /// The other members of the user's group; `nil` without a group.
        public var mates: [Mate]?
        public var enabled: Bool
        /// Keys of the notices recorded for today, and how many of them were shown.
        public var recordedKeys: Set<String>
        public var shownToday: Int

        public init(
            now: Date, calendar: DayCalendar, today: LocalDate, blocksUsed: Int, goal: Int, streak: Int,
            yesterday: DayRecord?, myName: String, mates: [Mate]?, enabled: Bool, recordedKeys: Set<String>,
            shownToday: Int
        ) {
            self.now = now
            self.calendar = calendar
            self.today = today
            self.blocksUsed = blocksUsed
            self.goal = goal
            self.streak = streak
            self.yesterday = yesterday
            self.myName = myName
            self.mates = mates
            self.enabled = enabled
            self.recordedKeys = recordedKeys
            self.shownToday = shownToday
        }
    }

    public struct Decision: Hashable, Sendable {
        /// To show now, in this order.
        public var deliver: [Notice]
        /// To record as sent without showing.
        public var countAsSent: [Notice]
        /// When a notice that depends only on the time will next be due.
        public var nextDue: Date?

        public var isEmpty: Bool { deliver.isEmpty && countAsSent.isEmpty }
    }

    /// Notices shown a day, at most.
    public static let dailyBudget = 12
    /// What of the budget notices about others (group-mates, the evening summary) leave to the
    /// user's own (the three thresholds and the reset): a big group going over never silences them.
    public static let ownReserve = 4
    /// Group-mates going over announced at once, at most.
    public static let matesAtOnce = 3
    /// When the evening summary is due, local time.
    public static let eveningHour = 22

    /// The limit states that have a notice, lowest first.
    static let thresholds: [LimitState] = [.warning, .critical, .over]

    public static func decide(_ input: Input) -> Decision {
        var due: [Notice] = []
        var silent: [Notice] = []
        let (shown, passed) = thresholdNotices(input)
        due += shown
        silent += passed
        if let reset = resetNotice(input) { due.append(reset) }
        let (mates, skipped) = mateNotices(input)
        due += mates
        silent += skipped
        let evening = eveningInstant(input)
        if let evening, input.now >= evening, let summary = eveningNotice(input) { due.append(summary) }

        var deliver: [Notice] = []
        var budget = max(0, dailyBudget - input.shownToday)
        for notice in due {
            if input.enabled && budget > (notice.isAboutOthers ? ownReserve : 0) {
                deliver.append(notice)
                budget -= 1
            } else {
                silent.append(notice)
            }
        }
        var next = input.calendar.nextReset(after: input.now)
        if let evening, input.now < evening, input.mates != nil,
            !input.recordedKeys.contains(key(.eveningSummary, input.today))
        {
            next = min(next, evening)
        }
        return Decision(deliver: deliver, countAsSent: silent, nextDue: next)
    }

    /// A notice the user asked for.
    public static func test(now: Date, calendar: DayCalendar) -> Notice {
        let (hour, minute) = calendar.hourAndMinute(of: now)
        return Notice(
            kind: .test, day: calendar.day(containing: now), title: "Test notice",
            body: "Notifications work. Sent at \(TimeFormat.clock(hour: hour, minute: minute)).",
            serial: String(Int64((now.timeIntervalSince1970 * 1000).rounded())))
    }

    // MARK: - The rules

    static func key(_ kind: Notice.Kind, _ day: LocalDate) -> String {
        Notice(kind: kind, day: day, title: "", body: "").key
    }

    private static func thresholdNotices(_ input: Input) -> (shown: [Notice], passed: [Notice]) {
        let state = LimitState(blocksUsed: input.blocksUsed, goal: max(1, input.goal))
        let crossed = thresholds.filter { $0 <= state }
        let unsent = crossed.filter { !input.recordedKeys.contains(key(.threshold($0), input.today)) }
        guard let highest = unsent.last else { return ([], []) }
        let notices = unsent.map { thresholdNotice($0, input) }
        let higherSent = thresholds.contains {
            $0 > highest && input.recordedKeys.contains(key(.threshold($0), input.today))
        }
        if higherSent { return ([], notices) }
        return ([notices.last!], Array(notices.dropLast()))
    }

    private static func thresholdNotice(_ state: LimitState, _ input: Input) -> Notice {
        let used = "\(input.blocksUsed) of \(input.goal) blocks"
        let left = max(0, input.goal - input.blocksUsed)
        switch state {
        case .over:
            return Notice(
                kind: .threshold(.over), day: input.today, title: "Over today's limit",
                body: "\(used) used; today's streak is broken. Tomorrow starts afresh.")
        case .critical:
            return Notice(
                kind: .threshold(.critical), day: input.today, title: "90 % of today's limit",
                body: "\(used) used; \(left) left before the limit.")
        default:
            return Notice(
                kind: .threshold(.warning), day: input.today, title: "75 % of today's limit",
                body: "\(used) used; \(left) left before the limit.")
        }
    }

    private static func resetNotice(_ input: Input) -> Notice? {
        guard !input.recordedKeys.contains(key(.dailyReset, input.today)),
            let yesterday = input.yesterday, yesterday.date == input.today.adding(days: -1)
        else { return nil }
        let result =
            yesterday.viceBlocks > yesterday.goalBlocks
            ? "over the limit" : "within the limit"
        let days = input.streak == 1 ? "1 day" : "\(input.streak) days"
        return Notice(
            kind: .dailyReset, day: input.today, title: "A new day",
            body: "Yesterday: \(yesterday.viceBlocks) of \(yesterday.goalBlocks) blocks, \(result). Streak: \(days).")
    }

    private static func mateNotices(_ input: Input) -> (shown: [Notice], skipped: [Notice]) {
        let over = (input.mates ?? [])
            .compactMap { mate -> (Mate, Int)? in
                guard let blocks = mate.blocksToday, blocks > input.goal else { return nil }
                return (mate, blocks)
            }
            .filter { !input.recordedKeys.contains(key(.mateOver(userID: $0.0.userID), input.today)) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.name < $1.0.name }
        let notices = over.map { mate, blocks in
            Notice(
                kind: .mateOver(userID: mate.userID), day: input.today, title: "\(mate.name) went over the limit",
                body: "\(mate.name) has used \(blocks) of \(input.goal) blocks today.")
        }
        return (Array(notices.prefix(matesAtOnce)), Array(notices.dropFirst(matesAtOnce)))
    }

    /// 22:00 today, when it falls within today (a day-start hour after 22 has no evening).
    private static func eveningInstant(_ input: Input) -> Date? {
        guard input.mates != nil else { return nil }
        let evening = input.calendar.instant(on: input.today, hour: eveningHour, minute: 0)
        return input.calendar.interval(of: input.today).contains(evening) ? evening : nil
    }

    private static func eveningNotice(_ input: Input) -> Notice? {
        guard let mates = input.mates, !input.recordedKeys.contains(key(.eveningSummary, input.today)) else {
            return nil
        }
        let everyone =
            [(input.myName, input.blocksUsed)] + mates.compactMap { mate in mate.blocksToday.map { (mate.name, $0) } }
        let furthest = everyone.filter { $0.1 > input.goal }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.first
        let body =
            furthest.map { name, blocks in
                "\(name == input.myName ? "You are" : "\(name) is") furthest over: \(blocks) of \(input.goal) blocks."
            } ?? "Everyone in the group is within the limit so far."
        return Notice(kind: .eveningSummary, day: input.today, title: "Evening summary", body: body)
    }
}
