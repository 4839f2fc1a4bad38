import Foundation

/// Decides a challenge from usage events: a pure function of the challenge, the blocks known,
/// the daily goals and the present instant.
///
/// The events may come in any order, late ones included (a block dated in the span that
/// arrives after others): the verdict depends on the set alone. A rule is broken at the
/// instant of the first block that breaks it — the (N+1)th block of a day for "at most N", a
/// block completed inside quiet hours, the vice block past the day's goal for a streak — and
/// kept when the span's last day ends with none. Events after `now` (a clock set back) do not
/// count yet. Knowing more blocks can only turn "running" or "kept" into "broken", never the
/// other way: whoever records verdicts records the first one and keeps it.
///
/// Whatever `Challenge` it is handed — one read from a file or a server that another member
/// wrote — it never traps: a challenge with a `problem` (at most −1 blocks, a span of a million
/// days) is refused, never judged.
public struct ChallengeJudge: Sendable {
    public let calendar: DayCalendar

    public init(calendar: DayCalendar) {
        self.calendar = calendar
    }

    public enum Verdict: Hashable, Sendable {
        /// Its first day has not begun.
        case notStarted
        /// Begun, nothing broken yet, the span not over.
        case running
        /// Broken by a block completed at `at`, on `day`.
        case broken(at: Date, day: LocalDate)
        /// The span ended (at `at`) with the rule kept every day.
        case kept(at: Date)
        /// The challenge makes no sense (its `problem`): it is neither kept nor broken, ever.
        case refused(String)

        public var isDecided: Bool {
            switch self {
            case .broken, .kept: true
            case .notStarted, .running, .refused: false
            }
        }
    }

    /// - Parameters:
    ///   - goal: the daily goal in force on a day (for a streak challenge).
    ///   - otherMachines: the vice blocks the participant used on a day on their other machines
    ///     (as the group store last said them). They count first towards a rule on every vice app
    ///     (at most N blocks of them, a streak) on each day the span holds whole; a day their blocks
    ///     alone break is broken from its start, since when on that day they were used is not known
    ///     (for the same reason they do not count on a day the challenge began after its start). A rule
    ///     on one app or on quiet hours judges this machine's blocks, the only ones whose apps and
    ///     times are known.
    public func verdict(
        _ challenge: Challenge, events: some Sequence<UsageEvent>, goal: (LocalDate) -> Int,
        otherMachines: (LocalDate) -> Int = { _ in 0 }, now: Date
    ) -> Verdict {
        if let problem = challenge.problem { return .refused(problem) }
        let end = calendar.start(of: challenge.lastDay.adding(days: 1))
        let start = max(calendar.start(of: challenge.firstDay), min(challenge.startsAt ?? .distantPast, end))
        guard now >= start else { return .notStarted }
        let horizon = min(now, end)
        var byDay: [LocalDate: [UsageEvent]] = [:]
        for event in events where event.occurredAt >= start && event.occurredAt < horizon {
            byDay[calendar.day(containing: event.occurredAt), default: []].append(event)
        }
        // The other machines' blocks of a day, when all of it is in the span: on a day the challenge
        // began after its start, which of them came before is not known, and none counts.
        func elsewhere(_ day: LocalDate) -> Int {
            guard countsOtherMachines(challenge.rule), calendar.start(of: day) >= start else { return 0 }
            return max(0, otherMachines(day))
        }
        var first: (at: Date, day: LocalDate)?
        for (day, dayEvents) in byDay {
            let ordered = dayEvents.sorted { ($0.occurredAt, $0.id.uuidString) < ($1.occurredAt, $1.id.uuidString) }
            let extra = elsewhere(day)
            guard let breaking = breakingEvent(challenge.rule, ordered: ordered, goal: goal(day), extra: extra)
            else { continue }
            if first == nil || breaking.occurredAt < first!.at { first = (breaking.occurredAt, day) }
        }
        // Days broken by the other machines' blocks alone.
        if countsOtherMachines(challenge.rule) {
            var day = calendar.day(containing: start)
            while calendar.start(of: day) < horizon {
                let limit = allowed(challenge.rule, goal: goal(day))
                if elsewhere(day) > limit {
                    let at = calendar.start(of: day)
                    if first == nil || at < first!.at { first = (at, day) }
                    break
                }
                day = day.adding(days: 1)
            }
        }
        if let first { return .broken(at: first.at, day: first.day) }
        return now >= end ? .kept(at: end) : .running
    }

    /// Whether the other machines' blocks count for `rule`: a rule on every vice app, by the day.
    private func countsOtherMachines(_ rule: ChallengeRule) -> Bool {
        switch rule {
        case .dailyBlocks(_, .allVice), .streak: true
        case .dailyBlocks(_, .app), .quietHours: false
        }
    }

    /// How many vice blocks a day may hold under a rule by the day.
    private func allowed(_ rule: ChallengeRule, goal: Int) -> Int {
        switch rule {
        case .dailyBlocks(let max, _): Swift.max(0, max)
        case .streak: Swift.max(0, goal)
        case .quietHours: Int.max
        }
    }

    /// The first of one day's blocks (in time order) that breaks `rule`, if any, with `extra`
    /// blocks of the day used elsewhere counted first.
    private func breakingEvent(_ rule: ChallengeRule, ordered: [UsageEvent], goal: Int, extra: Int) -> UsageEvent? {
        switch rule {
        case .dailyBlocks(_, let target):
            // `verdict` refuses a negative maximum; held at zero here all the same.
            let allowed = Swift.max(0, allowed(rule, goal: goal) - extra)
            let matching = ordered.filter(target.matches)
            return matching.count > allowed ? matching[allowed] : nil
        case .quietHours(let target, let from, let until):
            return ordered.first { event in
                target.matches(event)
                    && ChallengeRule.isQuiet(event.occurredAt, from: from, until: until, calendar: calendar)
            }
        case .streak:
            let vice = ordered.filter { $0.category == .vice }
            let allowed = max(0, allowed(rule, goal: goal) - extra)
            return vice.count > allowed ? vice[allowed] : nil
        }
    }
}
