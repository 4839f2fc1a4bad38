import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesTestSupport
import Testing

/// The seed's correctness properties that group challenges, coins, badges and the weekly
/// settlement keep (seed 004: 11, 14, 16, 17, 18, 19; seed 002: the settlement rules), 100
/// cases each.
@Suite struct GroupGameTests {
    static let first = LocalDate(iso8601: "2027-03-22")!
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!, dayStartHour: 0)
    static let at0 = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: Challenges (properties 11 and 16)

    /// Property 11: any challenge made of valid parameters is valid, and over time it goes from
    /// not started to running to decided, never back, and once decided stays as it was.
    @Test func aValidChallengeStartsRunsAndIsDecidedOnce() async {
        let parameters = Generator<(Challenge, [UsageEvent]), Shrink.None<(Challenge, [UsageEvent])>> { rng in
            let rules: [ChallengeRule] = [
                .dailyBlocks(max: Int.random(in: 0...4, using: &rng), target: .allVice),
                .dailyBlocks(max: Int.random(in: 0...4, using: &rng), target: .app("youtube")),
                .quietHours(
                    target: .allVice, from: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: 0)!,
                    until: TimeOfDay(hour: Int.random(in: 0...23, using: &rng), minute: 30)!),
                .streak,
            ]
            let challenge = Challenge(
                id: "c1", rule: rules.randomElement(using: &rng)!, firstDay: Self.first,
                days: Int.random(in: 1...6, using: &rng), reward: Int.random(in: 0...10_000, using: &rng),
                penalty: Int.random(in: 0...10_000, using: &rng))
            let start = Self.calendar.start(of: Self.first)
            let events = (0..<Int.random(in: 0...30, using: &rng)).map { _ in
                UsageEvent(
                    id: UUID(), appID: Bool.random(using: &rng) ? "youtube" : "tiktok", category: .vice, seconds: 900,
                    occurredAt: start.addingTimeInterval(Double(Int.random(in: 0..<(8 * 96), using: &rng)) * 900))
            }
            return (challenge, events)
        }
        let judge = ChallengeJudge(calendar: Self.calendar)
        await propertyCheck(count: 100, input: parameters) { challenge, events in
            #expect(challenge.problem == nil)
            var stage = 0
            var decided: ChallengeJudge.Verdict?
            for hour in stride(from: -24, through: 24 * 9, by: 6) {
                let now = Self.calendar.start(of: Self.first).addingTimeInterval(Double(hour) * 3600)
                let verdict = judge.verdict(challenge, events: events, goal: { _ in 3 }, now: now)
                let next =
                    switch verdict {
                    case .notStarted: 0
                    case .running: 1
                    case .broken, .kept: 2
                    case .refused: -1
                    }
                #expect(next >= stage, "\(verdict) after stage \(stage)")
                stage = next
                if let decided { #expect(verdict == decided, "a decided challenge stays decided") }
                if verdict.isDecided { decided = verdict }
            }
            #expect(decided != nil, "every challenge is decided once its span is over")
        }
    }

    static let reports = Generator<[(ParticipantState, Int)], Shrink.None<[(ParticipantState, Int)]>> { rng in
        (0..<Int.random(in: 0...10, using: &rng)).map { _ in
            (ParticipantState.allCases.randomElement(using: &rng)!, Int.random(in: 0...9, using: &rng))
        }
    }

    // MARK: Coins (properties 14 and 17)

    /// Property 14: a week's settlement booked into a ledger any number of times counts once,
    /// and a week's loss never takes the balance below zero.
    @Test func aSettledWeekIsBookedOnceAndNeverBelowZero() async {
        let weeks = Gen.int(in: -70...35).array(of: 0...12)
        let code = try! GroupCode(validating: "K7Q2XM")
        await propertyCheck(count: 100, input: weeks, Gen.int(in: 1...3)) { coins, repeats in
            var ledger = CoinLedger()
            let results = coins.enumerated().map { index, amount in
                WeekResult(
                    userID: UserID("u1"), week: Self.first.adding(days: 7 * index), status: .settled,
                    tally: WeekTally(keptDays: 0, overDays: 0, missingDays: 0), coins: amount, rule: .pending,
                    settledAt: Self.at0)
            }
            for _ in 0..<repeats {
                for result in results {
                    ledger.book(cause: result.cause(group: code), asked: result.coins, reason: "week", at: Self.at0)
                    #expect(ledger.balance >= 0)
                }
            }
            #expect(ledger.transactions.count == results.count)
        }
    }

    // MARK: The weekly settlement (seed 002)

    static let weekInput = Generator<
        ([LocalDate: WeekSettlement.Day], Int, MissingDaysRule),
        Shrink.None<([LocalDate: WeekSettlement.Day], Int, MissingDaysRule)>
    > { rng in
        var days: [LocalDate: WeekSettlement.Day] = [:]
        for offset in -2..<9 where Int.random(in: 0...3, using: &rng) > 0 {
            days[first.adding(days: offset)] = WeekSettlement.Day(
                viceBlocks: Int.random(in: 0...12, using: &rng), goalBlocks: 8)
        }
        return (days, Int.random(in: -3...8, using: &rng), MissingDaysRule.allCases.randomElement(using: &rng)!)
    }

    /// Each counted day is kept, over or missing, exactly one of them; pending waits exactly
    /// when a day is missing; the coins follow the rates; and worst-case charges the most any
    /// missing days could have cost.
    @Test func aWeekAddsUpAndWorstCaseIsTheMostItCouldCost() async {
        await propertyCheck(count: 100, input: Self.weekInput) { days, joinedOffset, rule in
            let memberFrom = Self.first.adding(days: joinedOffset)
            let counted = WeekSettlement.countedDays(week: Self.first, memberFrom: memberFrom)
            let outcome = WeekSettlement.settle(
                week: Self.first, memberFrom: memberFrom, days: days, rule: rule, keptDayCoins: 5, overDayCoins: 10)
            let missing = counted.filter { days[$0] == nil }.count
            switch outcome {
            case .notTheirs:
                #expect(counted.isEmpty)
            case .pending(let tally):
                #expect(rule == .pending && missing > 0)
                #expect(tally.keptDays + tally.overDays + tally.missingDays == counted.count)
            case .settled(let tally, let coins):
                #expect(rule == .worstCase || missing == 0)
                #expect(tally.keptDays + tally.overDays + tally.missingDays == counted.count)
                #expect(tally.missingDays == missing)
                #expect(coins == tally.keptDays * 5 - (tally.overDays + tally.missingDays) * 10)
                // Whatever the missing days would have held, they could not have cost more.
                var filled = days
                for date in counted where days[date] == nil {
                    filled[date] = WeekSettlement.Day(viceBlocks: Int.random(in: 0...12), goalBlocks: 8)
                }
                if case .settled(_, let actual) = WeekSettlement.settle(
                    week: Self.first, memberFrom: memberFrom, days: filled, rule: .pending, keptDayCoins: 5,
                    overDayCoins: 10)
                {
                    #expect(actual >= coins)
                }
            }
        }
    }

    /// The weeks that have closed are whole weeks starting on the group's weekday, one after
    /// another from the week holding the first day, each over before `today`.
    @Test func closedWeeksAreWholeAndOver() async {
        await propertyCheck(count: 100, input: Gen.int(in: 1...7), Gen.int(in: 0...60), Gen.int(in: 0...60)) {
            weekStart, fromOffset, span in
            let rules = SettlementRules(weekStart: weekStart, keptDayCoins: 5, overDayCoins: 10, missingDays: .pending)
            let from = Self.first.adding(days: fromOffset)
            let today = from.adding(days: span)
            let weeks = WeekSettlement.closedWeeks(from: from, today: today, rules: rules)
            for week in weeks {
                #expect(week.isoWeekday == weekStart)
                #expect(today >= week.adding(days: 7))
            }
            for (a, b) in zip(weeks, weeks.dropFirst()) { #expect(a.days(to: b) == 7) }
            if let firstWeek = weeks.first { #expect(firstWeek <= from && from < firstWeek.adding(days: 7)) }
            // The week after the last is still open.
            let next = weeks.last.map { $0.adding(days: 7) } ?? rules.firstDay(ofWeekContaining: from)
            #expect(today < next.adding(days: 7))
        }
    }

    @Test func weekdaysAreReadByName() {
        #expect(SettlementRules.weekday(named: "Monday") == 1)
        #expect(SettlementRules.weekday(named: "sun") == 7)
        #expect(SettlementRules.weekday(named: "mo") == nil)
        #expect(SettlementRules.weekday(named: "funday") == nil)
        #expect(SettlementRules.standard.problem == nil)
        #expect(SettlementRules(weekStart: 8, keptDayCoins: 1, overDayCoins: 1, missingDays: .pending).problem != nil)
    }

    // MARK: Badges (properties 18 and 19)

}
