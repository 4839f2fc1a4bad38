import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import Testing

@Suite struct UsageSimulatorTests {
    static let apps = [
        TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice),
        TrackedApp(id: "reddit", name: "Reddit", bundleID: "r", category: .vice),
        TrackedApp(id: "kindle", name: "Kindle", bundleID: "k", category: .productive),
    ]
    static let profile = UsageProfile(
        name: "test", hours: (0..<24).map { hour in .init(vice: hour >= 8 ? 0.3 : 0, productive: hour >= 8 ? 0.4 : 0) })
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!)
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    func simulator(seed: UInt64, start: Date = start) -> UsageSimulator {
        UsageSimulator(
            seed: seed, apps: Self.apps, profile: Self.profile, blockMinutes: 15, calendar: Self.calendar, start: start)
    }

    func events(_ simulator: UsageSimulator, count: Int) -> [UsageEvent] {
        var simulator = simulator
        return (0..<count).compactMap { _ in simulator.next() }
    }

    @Test func theSameSeedGivesTheSameEvents() {
        #expect(events(simulator(seed: 7), count: 200) == events(simulator(seed: 7), count: 200))
        #expect(events(simulator(seed: 7), count: 50) != events(simulator(seed: 8), count: 50))
    }

    @Test func runsStartedAtDifferentTimesAgreeWhereTheyOverlap() {
        let early = events(simulator(seed: 3), count: 300)
        let late = events(simulator(seed: 3, start: Self.start.addingTimeInterval(86400)), count: 100)
        let earlyByID = Dictionary(uniqueKeysWithValues: early.map { ($0.id, $0) })
        let overlap = late.filter { $0.occurredAt <= early.last!.occurredAt }
        #expect(!overlap.isEmpty)
        for event in overlap { #expect(earlyByID[event.id] == event) }
    }

    @Test func eventsAreOneBlockEachInTimeOrderWithUniqueIDsAndFollowTheProfile() {
        let list = events(simulator(seed: 11), count: 500)
        #expect(list.count == 500)
        #expect(list.allSatisfy { $0.seconds == 900 })
        #expect(zip(list, list.dropFirst()).allSatisfy { $0.occurredAt < $1.occurredAt })
        #expect(Set(list.map(\.id)).count == list.count)
        // The profile has no usage before 08:00 UTC: no block may start before then.
        #expect(
            list.allSatisfy { Self.calendar.hourAndMinute(of: $0.occurredAt.addingTimeInterval(-899.999)).hour >= 8 })
        #expect(
            list.allSatisfy { event in Self.apps.contains { $0.id == event.appID && $0.category == event.category } })
        let vice = Double(list.filter { $0.category == .vice }.count) / Double(list.count)
        #expect(vice > 0.3 && vice < 0.55, "vice share \(vice) should be near 0.3 / 0.7")
    }

    @Test func eventsAreStampedWithTheLastMillisecondOfTheirBlock() {
        for event in events(simulator(seed: 4), count: 50) {
            let millis = Int64((event.occurredAt.timeIntervalSince1970 * 1000).rounded())
            #expect(millis % 900_000 == 899_999, "\(event.occurredAt)")
        }
        let script = UsageScript(name: "t", steps: [.init(at: "23:45", app: "tiktok", category: .vice, blocks: 1)])
        var day = ScriptedDay(script: script, seed: 1, blockMinutes: 15, calendar: Self.calendar, start: Self.start)
        let event = day.next(now: Self.start)!
        #expect(Self.calendar.day(containing: event.occurredAt) == Self.calendar.day(containing: Self.start))
    }

    @Test func aProfileWithoutUsageEndsInsteadOfSpinning() {
        let idle = UsageProfile(name: "idle", hours: Array(repeating: .init(vice: 0, productive: 0), count: 24))
        var simulator = UsageSimulator(
            seed: 1, apps: Self.apps, profile: idle, blockMinutes: 15, calendar: Self.calendar, start: Self.start)
        #expect(simulator.next() == nil)
    }

    @Test func aMalformedProfileIsRefusedWithItsHour() {
        let short = UsageProfile(name: "short", hours: [.init(vice: 0.5, productive: 0.5)])
        #expect(throws: UsageProfileError.wrongHourCount(name: "short", count: 1)) { try short.validated() }
        var hours = Array(repeating: UsageProfile.Hour(vice: 0.1, productive: 0.1), count: 24)
        hours[5] = .init(vice: 0.7, productive: 0.5)
        #expect(throws: UsageProfileError.badProbability(name: "odd", hour: 5)) {
            try UsageProfile(name: "odd", hours: hours).validated()
        }
    }
}
