import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import Testing

/// Samples to active time, on an injected clock: each sample stands for the time to the next.
@Suite struct SampledTimelineTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)
    static let cmus = TrackedApp(id: "cmus", name: "cmus", bundleID: "c", category: .vice)
    static let nvim = TrackedApp(id: "neovim", name: "Neovim", bundleID: "n", category: .productive)
    static let deriver = BlockDeriver(
        source: "terminal", host: "desk", blockSeconds: 60, calendar: calendar,
        matcher: AppMatcher(apps: [cmus, nvim], rules: [DesktopAppRule(id: "neovim", names: ["nvim"])]))

    /// Samples every second from `from` to `to` (seconds after `start`), of `app`.
    static func feed(
        _ timeline: inout SampledTimeline, _ app: String?, _ from: Int, _ to: Int, idle: Double = 0,
        screenOff: Bool = false, step: Int = 1
    ) {
        for second in stride(from: from, through: to, by: step) {
            timeline.add(
                FocusSample(app: app, idleSeconds: idle, screenOff: screenOff),
                at: start.addingTimeInterval(Double(second)))
        }
    }

    static func active(_ timeline: SampledTimeline) -> [String: Int64] {
        let now = start.addingTimeInterval(86_400)
        var total: [String: Int64] = [:]
        for day in [calendar.day(containing: start), calendar.day(containing: now)] {
            total.merge(
                deriver.derive(timeline.timeline, day: day, until: now).trackedMilliseconds, uniquingKeysWith: +)
        }
        return total
    }

    @Test func eachSampleStandsForTheTimeToTheNextAndSwitchingMovesIt() {
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        Self.feed(&timeline, "cmus", 0, 120)
        Self.feed(&timeline, "nvim", 121, 300)
        #expect(Self.active(timeline) == ["cmus": 121_000, "neovim": 179_000])
        #expect(timeline.focus.count == 2, "one span per stretch, however many samples")
    }

    @Test func aGapLongerThanAFewSamplesIsTheMachineAsleepAndCountsNothing() {
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        Self.feed(&timeline, "cmus", 0, 60)
        // Suspended for an hour: the next sample comes 3600 s later.
        Self.feed(&timeline, "cmus", 3660, 3720)
        #expect(Self.active(timeline) == ["cmus": 120_000])
        // Samples late by less than the gap still count.
        var late = SampledTimeline(idleThreshold: 180, maxGap: 10)
        Self.feed(&late, "cmus", 0, 60, step: 6)
        #expect(Self.active(late) == ["cmus": 60_000])
    }

    @Test func idleInputALockedScreenOrNothingFocusedCountsNothing() {
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        Self.feed(&timeline, "cmus", 0, 60, idle: 179)
        Self.feed(&timeline, "cmus", 61, 120, idle: 180)
        Self.feed(&timeline, "cmus", 121, 180, screenOff: true)
        Self.feed(&timeline, nil, 181, 240)
        Self.feed(&timeline, "nvim", 241, 242)
        #expect(Self.active(timeline) == ["cmus": 61_000, "neovim": 1000])
    }

    @Test func aClockSetBackStartsAfreshCountingNothingInBetween() {
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        Self.feed(&timeline, "cmus", 100, 160)
        Self.feed(&timeline, "cmus", 0, 30)
        #expect(Self.active(timeline) == ["cmus": 90_000])
    }

    @Test func aRestartedRunNumbersItsBlocksAfterTheOnesWrittenBefore() {
        var first = SampledTimeline(idleThreshold: 180, maxGap: 10)
        Self.feed(&first, "cmus", 0, 150)
        let day = Self.calendar.day(containing: Self.start)
        let end = Self.start.addingTimeInterval(86_400)
        let before = Self.deriver.derive(first.timeline, day: day, until: end).events
        #expect(before.count == 2)
        // The process restarted: the new one saw only what came after, and knows 2 blocks exist.
        var second = SampledTimeline(idleThreshold: 180, maxGap: 10)
        Self.feed(&second, "cmus", 200, 330)
        let after = Self.deriver.derive(second.timeline, day: day, until: end, earlier: ["cmus": 2]).events
        #expect(after.count == 2)
        #expect(Set(after.map(\.id)).isDisjoint(with: before.map(\.id)))
        let expected = (3...4).map {
            BlockID.make(source: "terminal", host: "desk", day: day.iso8601, appID: "cmus", number: $0)
        }
        #expect(after.map(\.id) == expected)
    }
}
