import Foundation
import ScreenMatesCore
import ScreenMatesStore

enum Fixtures {
    static let utc = TimeZone(identifier: "UTC")!

    static func instant(_ text: String) -> Date {
        TimeFormat.parseInstant(text, timeZone: utc)!
    }

    static func event(_ category: AppCategory, at text: String, minutes: Int = 15, id: UUID = UUID()) -> UsageEvent {
        UsageEvent(
            id: id, appID: category == .vice ? "tiktok" : "kindle", category: category, seconds: minutes * 60,
            occurredAt: instant(text))
    }

    static let apps = [
        TrackedApp(id: "tiktok", name: "TikTok", bundleID: "com.zhiliaoapp.musically", category: .vice),
        TrackedApp(id: "kindle", name: "Kindle", bundleID: "com.amazon.Lassen", category: .productive),
    ]

    /// A store with a profile whose tracking starts on `start`.
    static func store(in directory: TemporaryDirectory, start: String = "2026-11-01", goal: Int = 8) throws
        -> LocalStore
    {
        let store = try LocalStore.open(at: directory.databasePath)
        var settings = try store.createProfileIfNeeded(
            userID: "abcd2345", trackingStart: LocalDate(iso8601: start)!, apps: apps)
        settings.rules.dailyGoalBlocks = goal
        try store.updateSettings(settings)
        return store
    }
}

extension LocalStore {
    /// The daily reset as the tests run it: at the start of the clock's day (when it runs does
    /// not change what it archives, only the time it writes down).
    func rollOver(clockDay: LocalDate, calendar: DayCalendar) throws(StoreError) -> RolloverOutcome {
        try rollOver(clockDay: clockDay, calendar: calendar, now: calendar.interval(of: clockDay).lowerBound)
    }

    /// A profile made at the start of its first day.
    func createProfileIfNeeded(userID: String, trackingStart: LocalDate, apps: [TrackedApp]) throws(StoreError)
        -> UserSettings
    {
        try createProfileIfNeeded(
            userID: UserID(userID), trackingStart: trackingStart, apps: apps,
            now: DayCalendar(timeZone: TimeZone(identifier: "UTC")!).interval(of: trackingStart).lowerBound)
    }
}
