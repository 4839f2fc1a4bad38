import Foundation
import ScreenMatesCore
import ScreenMatesMonitor

/// What the desktop probes' tests share: the blocks a focus timeline gives for two tracked apps,
/// `alpha` (vice) and `beta` (productive), derived as the monitor derives them (one-minute blocks,
/// UTC days).
enum TwoAppUsage {
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)

    /// The day of `start` up to an hour after it; the apps named as the desktop names them.
    static func derive(
        _ timeline: SampledTimeline, source: String, from start: Date, names: (String, String) = ("alpha", "beta")
    ) -> BlockDeriver.DayUsage {
        let apps = [
            TrackedApp(id: "alpha", name: names.0, bundleID: "a", category: .vice),
            TrackedApp(id: "beta", name: names.1, bundleID: "b", category: .productive),
        ]
        let deriver = BlockDeriver(
            source: source, host: "desk", blockSeconds: 60, calendar: calendar,
            matcher: AppMatcher(apps: apps, rules: []))
        return deriver.derive(
            timeline.timeline, day: calendar.day(containing: start), until: start.addingTimeInterval(3600))
    }
}
