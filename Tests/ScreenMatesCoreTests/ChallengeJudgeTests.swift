import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// Challenges decided from the blocks (`ChallengeJudge`), on a calendar with a 4 am day start
/// across a DST change.
@Suite struct ChallengeJudgeTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let calendar = DayCalendar(timeZone: zone, dayStartHour: 4)
    static let judge = ChallengeJudge(calendar: calendar)
    static let first = LocalDate(iso8601: "2027-03-26")!  // spans the DST change of 28 March

    /// A block completed at `hour:minute` (wall clock) on the `offset`-th day of the span.
    static func block(_ app: String, _ category: AppCategory, day offset: Int, _ hour: Int, _ minute: Int)
        -> UsageEvent
    {
        var date = first.adding(days: offset)
        // Hours before the 4 am day start belong to the previous day's calendar date + 1.
        if hour < 4 { date = date.adding(days: 1) }
        let at = calendar.instant(on: date, hour: hour, minute: minute)
        return UsageEvent(
            id: UUID(), appID: app, category: category, seconds: 900, occurredAt: at)
    }

    static func challenge(_ rule: ChallengeRule, days: Int = 3) -> Challenge {
        Challenge(id: "c1", rule: rule, firstDay: first, days: days, reward: 50, penalty: 30)
    }

    static let duringSpan = calendar.instant(on: first.adding(days: 1), hour: 23, minute: 0)
    static let afterSpan = calendar.start(of: first.adding(days: 3))

    // MARK: Examples

    @Test func atMostNBlocksBreaksAtTheBlockPastN() {
        let rule = ChallengeRule.dailyBlocks(max: 2, target: .app("youtube"))
        let two = [
            Self.block("youtube", .vice, day: 1, 10, 0), Self.block("youtube", .vice, day: 1, 11, 0),
            Self.block("tiktok", .vice, day: 1, 12, 0),
        ]
        let c = Self.challenge(rule)
        #expect(Self.judge.verdict(c, events: two, goal: { _ in 8 }, now: Self.duringSpan) == .running)
        #expect(Self.judge.verdict(c, events: two, goal: { _ in 8 }, now: Self.afterSpan) == .kept(at: Self.afterSpan))
        let third = Self.block("youtube", .vice, day: 1, 13, 30)
        #expect(
            Self.judge.verdict(c, events: two + [third], goal: { _ in 8 }, now: Self.duringSpan)
                == .broken(at: third.occurredAt, day: Self.first.adding(days: 1)))
        // Two a day on different days is within the rule; vice apps together count for allVice.
        let spread = [Self.block("youtube", .vice, day: 0, 10, 0), Self.block("youtube", .vice, day: 2, 10, 0)]
        #expect(Self.judge.verdict(c, events: spread + two, goal: { _ in 8 }, now: Self.afterSpan).isDecided)
        let vice = Self.challenge(.dailyBlocks(max: 2, target: .allVice))
        #expect(
            Self.judge.verdict(vice, events: two, goal: { _ in 8 }, now: Self.duringSpan)
                == .broken(at: two[2].occurredAt, day: Self.first.adding(days: 1)))
    }

    @Test func quietHoursPastMidnightAndOutsideTheSpan() {
        let rule = ChallengeRule.quietHours(
            target: .app("youtube"), from: TimeOfDay(hour: 22, minute: 0)!, until: TimeOfDay(hour: 7, minute: 0)!)
        let c = Self.challenge(rule)
        let evening = Self.block("youtube", .vice, day: 0, 21, 59)
        let morning = Self.block("youtube", .vice, day: 0, 7, 0)
        #expect(Self.judge.verdict(c, events: [evening, morning], goal: { _ in 8 }, now: Self.afterSpan).isDecided)
        #expect(
            Self.judge.verdict(c, events: [evening, morning], goal: { _ in 8 }, now: Self.afterSpan)
                == .kept(at: Self.afterSpan))
        // 02:30 in the night of the DST change (which skips 02:00-03:00 in Berlin) is 03:30.
        let night = Self.block("youtube", .vice, day: 1, 2, 30)
        #expect(
            Self.judge.verdict(c, events: [evening, night], goal: { _ in 8 }, now: Self.afterSpan)
                == .broken(at: night.occurredAt, day: Self.first.adding(days: 1)))
        // Before the span, or not yet passed: not counted.
        let before = Self.block("youtube", .vice, day: -1, 23, 0)
        #expect(
            Self.judge.verdict(c, events: [before], goal: { _ in 8 }, now: Self.afterSpan) == .kept(at: Self.afterSpan))
        let late = Self.block("youtube", .vice, day: 2, 23, 0)
        #expect(Self.judge.verdict(c, events: [late], goal: { _ in 8 }, now: Self.duringSpan) == .running)
        #expect(
            Self.judge.verdict(c, events: [late], goal: { _ in 8 }, now: Self.calendar.start(of: Self.first))
                == .running)
        #expect(
            Self.judge.verdict(
                c, events: [], goal: { _ in 8 }, now: Self.calendar.start(of: Self.first).addingTimeInterval(-1))
                == .notStarted)
    }

    @Test func aChallengeStartedNowCountsOnlyBlocksFromThen() {
        let morning = Self.block("youtube", .vice, day: 0, 9, 0)
        let noon = Self.block("youtube", .vice, day: 0, 12, 0)
        var c = Self.challenge(.dailyBlocks(max: 0, target: .allVice), days: 1)
        c.startsAt = Self.calendar.instant(on: Self.first, hour: 10, minute: 0)
        let eleven = Self.calendar.instant(on: Self.first, hour: 11, minute: 0)
        #expect(Self.judge.verdict(c, events: [morning], goal: { _ in 8 }, now: eleven) == .running)
        #expect(
            Self.judge.verdict(c, events: [morning, noon], goal: { _ in 8 }, now: Self.afterSpan)
                == .broken(at: noon.occurredAt, day: Self.first))
        #expect(
            Self.judge.verdict(c, events: [], goal: { _ in 8 }, now: eleven.addingTimeInterval(-3600 * 2))
                == .notStarted)
    }

    @Test func aStreakChallengeFollowsEachDaysGoal() {
        let c = Self.challenge(.streak)
        let threeVice = (0..<3).map { Self.block("tiktok", .vice, day: 1, 9 + $0, 0) }
        let goal: (LocalDate) -> Int = { $0 == Self.first.adding(days: 1) ? 2 : 8 }
        #expect(
            Self.judge.verdict(c, events: threeVice, goal: goal, now: Self.afterSpan)
                == .broken(at: threeVice[2].occurredAt, day: Self.first.adding(days: 1)))
        #expect(Self.judge.verdict(c, events: threeVice, goal: { _ in 3 }, now: Self.afterSpan).isDecided)
        #expect(
            Self.judge.verdict(c, events: threeVice, goal: { _ in 3 }, now: Self.afterSpan) == .kept(at: Self.afterSpan)
        )
    }

    @Test func theOtherMachinesBlocksCountForRulesByTheDayOnly() {
        let day1 = Self.first.adding(days: 1)
        let twoHere = [Self.block("tiktok", .vice, day: 1, 10, 0), Self.block("youtube", .vice, day: 1, 11, 0)]
        let three: (LocalDate) -> Int = { $0 == day1 ? 3 : 0 }
        // At most 4 vice blocks a day: 3 on the desk leave one here, so this machine's second breaks it.
        let vice = Self.challenge(.dailyBlocks(max: 4, target: .allVice))
        #expect(
            Self.judge.verdict(vice, events: twoHere, goal: { _ in 8 }, otherMachines: three, now: Self.afterSpan)
                == .broken(at: twoHere[1].occurredAt, day: day1))
        #expect(Self.judge.verdict(vice, events: twoHere, goal: { _ in 8 }, now: Self.afterSpan).isDecided == true)
        // A streak: 2 + 3 over a goal of 4.
        #expect(
            Self.judge.verdict(
                Self.challenge(.streak), events: twoHere, goal: { _ in 4 }, otherMachines: three, now: Self.afterSpan)
                == .broken(at: twoHere[1].occurredAt, day: day1))
        // The desk alone over the limit, on a day this machine used nothing: broken from the day's
        // start (when on the day is not known), whenever it is judged.
        let alone = Self.challenge(.dailyBlocks(max: 2, target: .allVice))
        for now in [Self.calendar.instant(on: day1, hour: 20, minute: 0), Self.afterSpan] {
            #expect(
                Self.judge.verdict(alone, events: [], goal: { _ in 8 }, otherMachines: three, now: now)
                    == .broken(at: Self.calendar.start(of: day1), day: day1))
        }
        #expect(
            Self.judge.verdict(alone, events: [], goal: { _ in 8 }, otherMachines: { _ in 2 }, now: Self.afterSpan)
                == .kept(at: Self.afterSpan), "at the limit is within it")
        // Begun at 10:00 on the first day: that day's blocks elsewhere may all be from before, and
        // do not count; the next day's do.
        var begun = Self.challenge(.dailyBlocks(max: 2, target: .allVice))
        begun.startsAt = Self.calendar.instant(on: Self.first, hour: 10, minute: 0)
        let firstDayOnly: (LocalDate) -> Int = { $0 == Self.first ? 5 : 0 }
        #expect(
            Self.judge.verdict(begun, events: [], goal: { _ in 8 }, otherMachines: firstDayOnly, now: Self.afterSpan)
                == .kept(at: Self.afterSpan))
        let secondDay: (LocalDate) -> Int = { $0 == Self.first.adding(days: 1) ? 5 : 0 }
        #expect(
            Self.judge.verdict(begun, events: [], goal: { _ in 8 }, otherMachines: secondDay, now: Self.afterSpan)
                == .broken(at: Self.calendar.start(of: Self.first.adding(days: 1)), day: Self.first.adding(days: 1)))
        // One app's rule and quiet hours judge this machine's blocks: their apps and times are known.
        let youtube = Self.challenge(.dailyBlocks(max: 1, target: .app("youtube")))
        #expect(
            Self.judge.verdict(youtube, events: twoHere, goal: { _ in 8 }, otherMachines: three, now: Self.afterSpan)
                == .kept(at: Self.afterSpan))
    }

    // MARK: Properties

    /// Up to 40 blocks of three apps over five days around the span, at any minute.
    static let eventsGen = Generator<[UsageEvent], Shrink.None<[UsageEvent]>> { rng in
        (0..<Int.random(in: 0...40, using: &rng)).map { _ in
            let (app, category): (String, AppCategory) =
                [("youtube", .vice), ("tiktok", .vice), ("notion", .productive)].randomElement(using: &rng)!
            let start = calendar.start(of: first.adding(days: -1))
            let at = start.addingTimeInterval(Double(Int.random(in: 0..<(5 * 1440), using: &rng)) * 60)
            return UsageEvent(
                id: UUID(
                    uuid: (
                        UInt8.random(in: 0...255, using: &rng), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        UInt8.random(in: 0...255, using: &rng)
                    )),
                appID: app, category: category, seconds: 900, occurredAt: at)
        }
    }

    static let rules: [ChallengeRule] = [
        .dailyBlocks(max: 2, target: .app("youtube")), .dailyBlocks(max: 3, target: .allVice),
        .quietHours(target: .allVice, from: TimeOfDay(hour: 21, minute: 0)!, until: TimeOfDay(hour: 6, minute: 0)!),
        .streak,
    ]

    @Test func theVerdictDependsOnTheSetOfBlocksNotTheirOrder() async {
        await propertyCheck(count: 200, input: Self.eventsGen, Gen.int(in: 0...(5 * 1440))) { events, minute in
            let now = Self.calendar.start(of: Self.first.adding(days: -1)).addingTimeInterval(Double(minute) * 60)
            for rule in Self.rules {
                let c = Self.challenge(rule)
                #expect(
                    Self.judge.verdict(c, events: events, goal: { _ in 3 }, now: now)
                        == Self.judge.verdict(c, events: events.reversed(), goal: { _ in 3 }, now: now))
            }
        }
    }

    /// A late block can break a challenge; nothing can mend one: more blocks or a later clock
    /// never turn "broken" into anything else, and never move the break later.
    @Test func moreBlocksOrALaterClockNeverMendABrokenChallenge() async {
        await propertyCheck(count: 200, input: Self.eventsGen, Self.eventsGen, Gen.int(in: 0...(5 * 1440))) {
            known, late, minute in
            let base = Self.calendar.start(of: Self.first.adding(days: -1))
            let now = base.addingTimeInterval(Double(minute) * 60)
            let later = base.addingTimeInterval(Double(5 * 1440) * 60)
            for rule in Self.rules {
                let c = Self.challenge(rule)
                let before = Self.judge.verdict(c, events: known, goal: { _ in 3 }, now: now)
                guard case .broken(let at, _) = before else { continue }
                for after in [
                    Self.judge.verdict(c, events: known + late, goal: { _ in 3 }, now: now),
                    Self.judge.verdict(c, events: known, goal: { _ in 3 }, now: later),
                ] {
                    guard case .broken(let atAfter, _) = after else {
                        Issue.record("\(rule): \(before) became \(after)")
                        continue
                    }
                    #expect(atAfter <= at)
                }
            }
        }
    }

    // MARK: Badges

    static func record(_ offset: Int, vice: Int, productive: Int = 0, goal: Int = 8, streak: Int) -> DayRecord {
        DayRecord(
            date: first.adding(days: offset), viceBlocks: vice, productiveBlocks: productive, goalBlocks: goal,
            earnedSeconds: 0, spentSeconds: 0, endingBalanceSeconds: 0, overdraftSeconds: 0, streakAfter: streak)
    }

}
