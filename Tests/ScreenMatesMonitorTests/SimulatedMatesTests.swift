import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesMonitor
import Testing

@Suite struct SimulatedMatesTests {
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "Europe/Berlin")!, dayStartHour: 4)
    static let day = LocalDate(year: 2026, month: 11, day: 18)!
    static let profile = UsageProfile(
        name: "test", hours: (0..<24).map { hour in .init(vice: hour >= 8 ? 0.3 : 0.05, productive: 0.3) })

    static func mates(
        _ count: Int, seed: UInt64 = 1, profile: UsageProfile = profile, goal: Int = 8, at now: Date
    ) -> SimulatedMates {
        SimulatedMates(
            names: (0..<count).map { try! DisplayName(validating: "mate\($0)") },
            ids: (0..<count).map { try! UserID(validating: "sim-\($0)") }, seed: seed, profile: profile,
            blockMinutes: 15, goal: goal, calendar: calendar, now: now)
    }

    /// However the clock moves (small steps, big ones, across days), the days the mates finish
    /// hold exactly the vice blocks their simulators give those days, each day once.
    @Test func advancingInAnyStepsFinishesTheDaysTheSimulationGives() async {
        let stepsGen = Gen.int(in: 1...(6 * 3600)).array(of: 1...40)
        await propertyCheck(count: 60, input: Gen.uint64(in: 0...UInt64.max), stepsGen) { seed, steps in
            let start = Self.calendar.instant(on: Self.day, hour: 10, minute: 7)
            var mates = Self.mates(3, seed: seed, at: start)
            var finished: [SimulatedMates.FinishedDay] = []
            var now = start
            finished += mates.advance(to: now).finished
            for seconds in steps {
                now = now.addingTimeInterval(Double(seconds))
                finished += mates.advance(to: now).finished
            }
            let today = Self.calendar.day(containing: now)
            let days = Set(finished.map(\.date))
            #expect(days == Set((0..<Self.day.days(to: today)).map { Self.day.adding(days: $0) }))
            let expected = today > Self.day ? mates.history(Self.day...today.adding(days: -1)) : []
            #expect(Set(finished) == Set(expected), "seed \(seed)")
            #expect(finished.count == expected.count)
        }
    }

    @Test func todaysBlocksGrowToTheDaysTotal() {
        var mates = Self.mates(5, at: Self.calendar.instant(on: Self.day, hour: 4, minute: 0))
        let evening = Self.calendar.instant(on: Self.day, hour: 22, minute: 0)
        _ = mates.advance(to: evening)
        let soFar = mates.mates.map(\.viceBlocks)
        #expect(mates.mates.allSatisfy { $0.day == Self.day && ($0.lastActive.map { $0 <= evening } ?? true) })
        let finished = mates.advance(to: Self.calendar.start(of: Self.day.adding(days: 1))).finished
        #expect(finished.map(\.viceBlocks) == mates.history(Self.day...Self.day).map(\.viceBlocks))
        #expect(zip(soFar, finished).allSatisfy { $0 <= $1.viceBlocks })
        // Temperaments differ: the mates do not all use the same.
        #expect(Set(finished.map(\.viceBlocks)).count > 1)
    }

    @Test func theStreakGrowsOnKeptDaysAndSkippedOnesAndEndsOnADayOver() {
        let start = Self.calendar.instant(on: Self.day, hour: 12, minute: 0)
        let idle = UsageProfile(name: "idle", hours: Array(repeating: .init(vice: 0, productive: 0.5), count: 24))
        var kept = Self.mates(2, profile: idle, at: start)
        let before = kept.mates.map(\.streak)
        _ = kept.advance(to: Self.calendar.instant(on: Self.day.adding(days: 1), hour: 12, minute: 0))
        #expect(kept.mates.map(\.streak) == before.map { $0 + 1 })
        // Three days skipped at once (a clock moved ahead): all kept.
        _ = kept.advance(to: Self.calendar.instant(on: Self.day.adding(days: 4), hour: 12, minute: 0))
        #expect(kept.mates.map(\.streak) == before.map { $0 + 4 })

        let binge = UsageProfile(name: "binge", hours: Array(repeating: .init(vice: 1, productive: 0), count: 24))
        var over = Self.mates(2, profile: binge, at: start)
        let advance = over.advance(to: Self.calendar.instant(on: Self.day.adding(days: 1), hour: 12, minute: 0))
        #expect(over.mates.map(\.streak) == [0, 0])
        #expect(advance.finished.allSatisfy { $0.date == Self.day && $0.viceBlocks > 8 })
        #expect(over.mates.allSatisfy { $0.day == Self.day.adding(days: 1) && $0.viceBlocks > 0 })
    }

    @Test func theSameSeedGivesTheSameMates() {
        let start = Self.calendar.instant(on: Self.day, hour: 18, minute: 0)
        var first = Self.mates(20, seed: 42, at: start)
        var second = Self.mates(20, seed: 42, at: start)
        _ = first.advance(to: start)
        _ = second.advance(to: start)
        #expect(first.mates.map(\.viceBlocks) == second.mates.map(\.viceBlocks))
        #expect(first.mates.map(\.streak) == second.mates.map(\.streak))
        #expect(first.advance(to: start).changed.isEmpty, "nothing changes without time passing")
    }

    @Test func theNextBlockEndIsAfterNowAndOnABlockBoundary() {
        let mates = Self.mates(1, at: Self.calendar.instant(on: Self.day, hour: 9, minute: 0))
        let now = Self.calendar.instant(on: Self.day, hour: 9, minute: 7)
        let next = mates.nextBlockEnd(after: now)
        #expect(next > now && next.timeIntervalSince(now) <= 900)
        #expect(next.timeIntervalSince1970.truncatingRemainder(dividingBy: 900) == 0)
    }
}
