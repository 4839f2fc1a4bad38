import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import Testing

/// Deriving only when the schedule says so writes every block, and every application seen, at
/// the very sample deriving at every sample would — whatever the focus, idle time, gaps, clock
/// steps back and day boundaries.
@Suite struct SampledWriteScheduleTests {
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)
    static let apps = [
        TrackedApp(id: "alpha", name: "alpha", bundleID: "a", category: .vice),
        TrackedApp(id: "beta", name: "beta", bundleID: "b", category: .productive),
    ]

    struct Scenario: Sendable, CustomStringConvertible {
        var start: Date
        var blockSeconds: Int
        /// Each sample: seconds since the one before, and what it saw.
        var samples: [(step: Double, sample: FocusSample)]
        var description: String { "start \(start), block \(blockSeconds) s, \(samples.count) samples" }
    }

    static let scenarioGen = Generator<Scenario, Shrink.None<Scenario>> { rng in
        // Near a day's end, so some scenarios cross midnight.
        let midnight = Date(timeIntervalSince1970: 1_780_012_800)
        let start = midnight.addingTimeInterval(-Double(Int.random(in: 0...900, using: &rng)))
        var app: String? = "alpha"
        var samples: [(Double, FocusSample)] = []
        for _ in 0..<Int.random(in: 20...300, using: &rng) {
            if Int.random(in: 0..<10, using: &rng) == 0 {
                app = [nil, "alpha", "beta", "xterm", "mpv", "zathura"].randomElement(using: &rng)!
            }
            let step: Double
            switch Int.random(in: 0..<100, using: &rng) {
            case 0: step = 15  // a gap: the machine slept
            case 1: step = -4  // the clock set back
            case 2...10: step = Double(Int.random(in: 1...30, using: &rng)) / 10
            default: step = 1
            }
            let idle: Double = Int.random(in: 0..<15, using: &rng) == 0 ? 200 : 0
            samples.append((step, FocusSample(app: app, idleSeconds: idle)))
        }
        return Scenario(start: start, blockSeconds: [5, 10, 30, 60].randomElement(using: &rng)!, samples: samples)
    }

    /// When each block and each application seen first came out: sample index by event id, and
    /// by name.
    static func run(_ scenario: Scenario, scheduled: Bool) -> (blocks: [UUID: Int], seen: [String: Int]) {
        let deriver = BlockDeriver(
            source: "x11", host: "desk", blockSeconds: scenario.blockSeconds, calendar: calendar,
            matcher: AppMatcher(apps: apps, rules: []))
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        var schedule = SampledWriteSchedule()
        var blocks: [UUID: Int] = [:]
        var seen: [String: Int] = [:]
        var now = scenario.start
        for (index, (step, sample)) in scenario.samples.enumerated() {
            now = now.addingTimeInterval(step)
            timeline.add(sample, at: now)
            guard !scheduled || schedule.isDue(now, newest: timeline.focus.last) else { continue }
            let today = calendar.day(containing: now)
            var todayUsage: BlockDeriver.DayUsage?
            for day in [today.adding(days: -1), today] {
                let usage = deriver.derive(timeline.timeline, day: day, until: now)
                for event in usage.events where blocks[event.id] == nil { blocks[event.id] = index }
                for name in usage.unplacedMilliseconds.keys where seen[name] == nil { seen[name] = index }
                todayUsage = usage
            }
            schedule.derived(
                now, newest: timeline.focus.last, today: todayUsage!, blockSeconds: scenario.blockSeconds,
                nextDay: calendar.start(of: today.adding(days: 1)))
        }
        return (blocks, seen)
    }

    @Test func blocksAndApplicationsSeenComeOutAtTheSameSampleAsWhenEverySampleDerives() async {
        await propertyCheck(count: 120, input: Self.scenarioGen) { scenario in
            let every = Self.run(scenario, scheduled: false)
            let scheduled = Self.run(scenario, scheduled: true)
            #expect(scheduled.blocks == every.blocks, "\(scenario)")
            #expect(scheduled.seen == every.seen, "\(scenario)")
        }
    }

    @Test func aSteadyFocusDerivesRarely() {
        var samples: [(Double, FocusSample)] = []
        for _ in 0..<600 { samples.append((1, FocusSample(app: "alpha", idleSeconds: 0))) }
        let scenario = Scenario(start: Date(timeIntervalSince1970: 1_780_000_000), blockSeconds: 900, samples: samples)
        var schedule = SampledWriteSchedule()
        var timeline = SampledTimeline(idleThreshold: 180, maxGap: 10)
        var derivations = 0
        var now = scenario.start
        for (step, sample) in scenario.samples {
            now = now.addingTimeInterval(step)
            timeline.add(sample, at: now)
            guard schedule.isDue(now, newest: timeline.focus.last) else { continue }
            derivations += 1
            let usage = BlockDeriver(
                source: "x11", host: "desk", blockSeconds: 900, calendar: Self.calendar,
                matcher: AppMatcher(apps: Self.apps, rules: [])
            ).derive(timeline.timeline, day: Self.calendar.day(containing: now), until: now)
            schedule.derived(
                now, newest: timeline.focus.last, today: usage, blockSeconds: 900,
                nextDay: now.addingTimeInterval(86400))
        }
        // Ten minutes of one app with 15-minute blocks: once a minute for the applications
        // seen, and at the first two samples (the first span appears at the second).
        #expect(derivations <= 12, "\(derivations) derivations in 600 samples")
    }
}
