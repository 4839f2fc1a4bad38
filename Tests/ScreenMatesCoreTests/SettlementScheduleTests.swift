import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// A week is settled by the rules it started with: changes made at any instant, in any order,
/// never reach a week that had begun somewhere on Earth when they were made.
@Suite struct SettlementScheduleTests {
    static let base = SettlementRules(weekStart: 3, keptDayCoins: 5, overDayCoins: 10, missingDays: .pending)

    /// One change: whose rates, and when (seconds after the first instant).
    struct Step: Sendable {
        var rules: SettlementRules
        var after: Int
    }

    /// Up to 12 changes over about two months, from 2026-06-01 00:00 UTC, some of them the rules
    /// before set back.
    static let stepsGen = Generator<[Step], Shrink.None<[Step]>> { rng in
        var at = 0
        return (0..<Int.random(in: 0...12, using: &rng)).map { _ in
            at += Int.random(in: 0...(9 * 86_400), using: &rng)
            let back = Int.random(in: 0...3, using: &rng) == 0
            let rules =
                back
                ? base
                : SettlementRules(
                    weekStart: 3, keptDayCoins: Int.random(in: 0...1000, using: &rng),
                    overDayCoins: Int.random(in: 0...1000, using: &rng),
                    missingDays: Bool.random(using: &rng) ? .pending : .worstCase)
            return Step(rules: rules, after: at)
        }
    }

    static let start = Date(timeIntervalSince1970: 1_780_272_000)  // 2026-06-01 00:00 UTC

    /// Whether the week starting on `first` had begun anywhere on Earth (UTC+14) at `instant`.
    static func hadBegun(_ first: LocalDate, at instant: Date) -> Bool {
        Double(first.dayNumber * 86_400 - 50_400) <= instant.timeIntervalSince1970
    }

    @Test func aWeekKeepsTheRulesItStartedWith() async {
        await propertyCheck(count: 300, input: Self.stepsGen) { steps in
            var schedule = SettlementSchedule(rules: Self.base)
            // The rules each week had when it began, as the changes come.
            var began: [LocalDate: SettlementRules] = [:]
            let first = Self.base.firstDay(ofWeekContaining: LocalDate(year: 2026, month: 5, day: 27)!)
            let weeks = (0..<14).map { first.adding(days: 7 * $0) }
            for step in steps {
                let at = Self.start.addingTimeInterval(Double(step.after))
                for week in weeks where Self.hadBegun(week, at: at) && began[week] == nil {
                    began[week] = schedule.rules(forWeek: week)
                }
                let from = schedule.set(step.rules, at: at, atOnce: false)
                // The first week that had not begun, and no later one.
                #expect(from.map { !Self.hadBegun($0, at: at) && Self.hadBegun($0.adding(days: -7), at: at) } == true)
                #expect(from.map { schedule.rules(forWeek: $0).hasSameRates(as: step.rules) } == true)
                #expect(schedule.latest.hasSameRates(as: step.rules))
                for (week, rules) in began { #expect(schedule.rules(forWeek: week) == rules, "week \(week)") }
                // At most one change a week, which a settlement folds once its week has begun.
                #expect(zip(schedule.changes, schedule.changes.dropFirst()).allSatisfy { $0.from < $1.from })
            }
        }
    }

    @Test func foldingTheWeeksReachedChangesNoWeekStillToSettle() async {
        await propertyCheck(count: 300, input: Self.stepsGen, Gen.int(in: 0...70)) { steps, offset in
            var schedule = SettlementSchedule(rules: Self.base)
            for step in steps {
                schedule.set(step.rules, at: Self.start.addingTimeInterval(Double(step.after)), atOnce: false)
            }
            let today = LocalDate(year: 2026, month: 6, day: 1)!.adding(days: offset)
            let folded = schedule.folded(today: today)
            let current = Self.base.firstDay(ofWeekContaining: today)
            for week in (0..<12).map({ current.adding(days: 7 * $0) }) {
                #expect(folded.rules(forWeek: week) == schedule.rules(forWeek: week))
            }
            #expect(folded.changes.allSatisfy { $0.from > current })
        }
    }

    @Test func theGroupsOnlyMemberChangesTheRulesAtOnce() {
        var schedule = SettlementSchedule(rules: Self.base)
        let harsh = SettlementRules(weekStart: 3, keptDayCoins: 0, overDayCoins: 1000, missingDays: .worstCase)
        schedule.set(harsh, at: Self.start, atOnce: false)
        #expect(schedule.changes.count == 1 && schedule.rules == Self.base)
        #expect(schedule.set(Self.base, at: Self.start, atOnce: true) == nil)
        #expect(schedule == SettlementSchedule(rules: Self.base))
    }

    /// Monday 1 June 2026, 09:59 UTC is Monday 23:59 at UTC+14; at 10:00 UTC Tuesday has begun
    /// there.
    @Test func theFirstWeekBegunNowhereIsCountedAtUTCPlus14() {
        let monday = LocalDate(year: 2026, month: 6, day: 1)!
        let beforeTen = Date(timeIntervalSince1970: Double(monday.dayNumber * 86_400 + 9 * 3600 + 59 * 60))
        #expect(SettlementSchedule.firstUnbegunWeek(at: beforeTen, weekStart: 1) == monday.adding(days: 7))
        let ten = Date(timeIntervalSince1970: Double(monday.dayNumber * 86_400 + 10 * 3600))
        #expect(SettlementSchedule.firstUnbegunWeek(at: ten, weekStart: 1) == monday.adding(days: 7))
        // Weeks from Tuesday: the one from 2 June has begun at UTC+14 by 10:00 UTC on 1 June.
        #expect(SettlementSchedule.firstUnbegunWeek(at: beforeTen, weekStart: 2) == monday.adding(days: 1))
        #expect(SettlementSchedule.firstUnbegunWeek(at: ten, weekStart: 2) == monday.adding(days: 8))
    }
}
