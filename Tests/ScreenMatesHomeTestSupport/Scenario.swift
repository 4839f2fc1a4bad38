import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore
import Synchronization

/// A person's home for a test: a store in a temporary directory, a clock and a time zone that
/// the test moves, and the feed the dashboard would use.
package final class Scenario {
    package let directory: String
    package let store: LocalStore
    package let clock: ManualClock
    private let zone: ZoneBox
    package private(set) var feed: FiguresReader!

    package init(timeZone: String, start: String, trackingStart: String, goal: Int = 8, dayStartHour: Int = 0) throws {
        directory = NSTemporaryDirectory() + "screenmates-app-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let zone = TimeZone(identifier: timeZone)!
        self.zone = ZoneBox(zone)
        clock = ManualClock(TimeFormat.parseInstant(start, timeZone: zone)!)
        store = try LocalStore.open(at: directory + "/local.sqlite")
        var settings = try store.createProfileIfNeeded(
            userID: "abcd2345", trackingStart: LocalDate(iso8601: trackingStart)!,
            apps: [
                TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice),
                TrackedApp(id: "kindle", name: "Kindle", bundleID: "k", category: .productive),
            ])
        settings.rules.dailyGoalBlocks = goal
        settings.dayStartHour = dayStartHour
        settings.displayName = try DisplayName(validating: "ana")
        try store.updateSettings(settings)
        feed = try FiguresReader(
            store: store, clock: clock, timeZone: TimeZoneSource { [zone = self.zone] in zone.current })
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    package var timeZone: TimeZone { zone.current }

    package func setTimeZone(_ identifier: String) { zone.set(TimeZone(identifier: identifier)!) }

    /// Moves the clock to a local time in the current time zone (or an instant with an offset).
    package func setClock(_ text: String) { clock.set(instant(text)) }

    package func instant(_ text: String) -> Date { TimeFormat.parseInstant(text, timeZone: timeZone)! }

    /// Writes `count` vice blocks ending at the given local time, 15 minutes apart, going back.
    package func vice(_ count: Int, endingAt text: String) throws {
        let end = instant(text)
        try store.record(
            (0..<count).map { i in
                UsageEvent(
                    id: UUID(), appID: "tiktok", category: .vice, seconds: 900,
                    occurredAt: end.addingTimeInterval(Double(-900 * i)))
            })
    }

    @discardableResult
    package func read() throws -> FiguresReader {
        try feed.read()
        return feed
    }

    package var streak: StreakManager.Summary { feed.summary.streak }
    package var history: [DayRecord] { (try? store.history()) ?? [] }
}

/// The machine's time zone, as a test moves it.
package final class ZoneBox: Sendable {
    private let zone: Mutex<TimeZone>

    package init(_ zone: TimeZone) { self.zone = Mutex(zone) }

    package var current: TimeZone { zone.withLock { $0 } }
    package func set(_ new: TimeZone) { zone.withLock { $0 = new } }
}
