import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// What values another member wrote can do to the rules: nothing traps. Sums saturate, a
/// challenge that makes no sense is refused by the judge, a rule cannot hold 25:00.
@Suite struct UntrustedValueTests {
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)
    static let first = LocalDate(iso8601: "2026-11-16")!

    /// Integers a group store may hold: the extremes, and anything between.
    static let extremeInt = Gen<Int?>.element(of: [.min, .min + 1, -1, 0, 1, 96, 97, 1440, .max - 1, .max])
        .map { $0! }
    static let anyInt = Gen.int(in: Int.min...Int.max)

    // MARK: Saturating arithmetic

    @Test func saturatingArithmeticIsExactUntilItHoldsAtTheBounds() async {
        await propertyCheck(count: 500, input: Self.anyInt, Self.anyInt) { a, b in
            let sum = Int128(a) + Int128(b)
            #expect(Int128(a.saturatingAdding(b)) == min(max(sum, Int128(Int.min)), Int128(Int.max)))
            let product = Int128(a) * Int128(b)
            #expect(Int128(a.saturatingMultiplied(by: b)) == min(max(product, Int128(Int.min)), Int128(Int.max)))
        }
        #expect(Int.min.saturatingNegated == .max)
        #expect([Int.max, Int.max, -5].saturatingSum() == .max - 5)
        #expect([Int.min, -1].saturatingSum() == .min)
    }

    @Test func theLedgerAndTheWeekSaturateInsteadOfTrapping() {
        var ledger = CoinLedger()
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        ledger.book(cause: "week a", asked: .max, reason: "a week worth everything", at: at)
        ledger.book(cause: "week b", asked: .max, reason: "twice", at: at)
        #expect(ledger.balance == .max)
        #expect(ledger.book(cause: "week c", asked: .min, reason: "a week costing everything", at: at)?.amount == -.max)
        #expect(ledger.balance == 0)
        let tally = WeekTally(keptDays: 7, overDays: 7, missingDays: .max)
        #expect(WeekSettlement.coins(tally, keptDayCoins: .max, overDayCoins: 0) == .max)
        #expect(WeekSettlement.coins(tally, keptDayCoins: 0, overDayCoins: .max) == -.max)
        #expect(
            WeekSettlement.coins(WeekTally(keptDays: 5, overDays: 2, missingDays: 0), keptDayCoins: 5, overDayCoins: 10)
                == 5)
    }

    // MARK: The judge

    /// The issue's case: at most −1 blocks made a member's monitor die with "Index out of range".
    @Test func atMostMinusOneBlocksIsRefusedNotJudged() {
        let challenge = Challenge(
            id: "evil", rule: .dailyBlocks(max: -1, target: .allVice), firstDay: Self.first, days: 3, reward: 0,
            penalty: 10)
        let block = UsageEvent(
            id: UUID(), appID: "youtube", category: .vice, seconds: 900,
            occurredAt: Self.calendar.start(of: Self.first).addingTimeInterval(3600))
        let verdict = ChallengeJudge(calendar: Self.calendar).verdict(
            challenge, events: [block], goal: { _ in 8 }, now: Self.calendar.start(of: Self.first.adding(days: 1)))
        #expect(verdict == .refused("At most 0 to 96 blocks a day; -1 is not."))
        #expect(!verdict.isDecided)
    }

    /// Whatever a challenge holds — any maximum, span, coins, first day and start — the judge
    /// answers: a verdict for one that makes sense, a refusal (its `problem`) for one that
    /// does not.
    @Test func theJudgeNeverTrapsWhateverChallengeItIsHanded() async {
        let numbers = Gen.oneOf(Self.extremeInt, Gen.int(in: -400...400))
        // Days around the blocks, and day numbers far beyond any calendar (a LocalDate's own
        // arithmetic holds up to ±10^15).
        let near = Self.first.dayNumber
        let days = Gen.oneOf(
            Gen.int(in: (near - 30)...(near + 30)), Gen.int(in: -3_700_000_000_000...3_700_000_000_000))
        let starts: [Date?] = [
            nil, .distantPast, .distantFuture, Date(timeIntervalSince1970: 3e12), Date(timeIntervalSince1970: -3e12),
            Self.calendar.start(of: Self.first).addingTimeInterval(5000),
        ]
        let instants = Gen.int(in: 0...(starts.count - 1)).map { starts[$0] }
        let judge = ChallengeJudge(calendar: Self.calendar)
        var judged = 0
        await propertyCheck(count: 300, input: numbers, numbers, days, instants) { max, span, firstDay, startsAt in
            let rules: [ChallengeRule] = [.dailyBlocks(max: max, target: .allVice), .streak]
            for rule in rules {
                let challenge = Challenge(
                    id: "c", rule: rule, firstDay: LocalDate(dayNumber: firstDay), days: span, reward: max,
                    penalty: span, startsAt: startsAt)
                let block = UsageEvent(
                    id: UUID(), appID: "youtube", category: .vice, seconds: 900,
                    occurredAt: Self.calendar.start(of: Self.first).addingTimeInterval(600))
                let now = Self.calendar.start(of: Self.first.adding(days: 2))
                let verdict = judge.verdict(challenge, events: [block], goal: { _ in span }, now: now)
                if let problem = challenge.problem {
                    #expect(verdict == .refused(problem))
                } else {
                    if case .refused = verdict { Issue.record("\(challenge) refused without a problem") }
                    judged += 1
                    _ = ParticipantProgress.report(challenge, outcome: nil, decidedDay: nil, today: Self.first)
                }
                _ = ParticipantProgress.report(challenge, outcome: .failed, decidedDay: Self.first, today: Self.first)
            }
        }
        #expect(judged > 20, "challenges that make sense were judged too")
    }

    @Test func aChallengeStartsInTheYearsEveryStoreKeeps() {
        let rule = ChallengeRule.streak
        for (year, right) in [(1, true), (9998, true), (9999, false), (12_000, false)] {
            let first = LocalDate(year: year, month: 12, day: 1)!
            let challenge = Challenge(id: "c", rule: rule, firstDay: first, days: 1, reward: 0, penalty: 0)
            #expect((challenge.problem == nil) == right, "\(year)")
        }
        #expect(
            Challenge(id: "c", rule: rule, firstDay: LocalDate(dayNumber: -800_000), days: 1, reward: 0, penalty: 0)
                .problem?.contains("the years 1 to 9998") == true)
    }

    // MARK: A rule as stored

    @Test func aTimeOfDayIsReadOnlyAsAMinuteOfADay() throws {
        let decoder = JSONDecoder()
        for minutes in [-1, 1440, 1500, Int.max, Int.min] {
            #expect(throws: DecodingError.self) {
                try decoder.decode(TimeOfDay.self, from: Data(#"{"minutes":\#(minutes)}"#.utf8))
            }
        }
        let late = try #require(TimeOfDay(hour: 23, minute: 59))
        #expect(try decoder.decode(TimeOfDay.self, from: JSONEncoder().encode(late)) == late)
        #expect(try decoder.decode(TimeOfDay.self, from: Data(#"{"minutes":0}"#.utf8)) == TimeOfDay(hour: 0, minute: 0))
        let rule = #"{"quietHours":{"from":{"minutes":1500},"target":{"allVice":{}},"until":{"minutes":60}}}"#
        #expect(throws: DecodingError.self) { try decoder.decode(ChallengeRule.self, from: Data(rule.utf8)) }
    }
}
