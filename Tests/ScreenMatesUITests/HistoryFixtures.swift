import Foundation
import ScreenMatesCore
import ScreenMatesTestSupport
import ScreenMatesUI

/// The dashboard fixtures with a history: tracked since 1 March 2026, the six days before the
/// fixture day (Wednesday 18 March) with hand-picked blocks, two of them over the goal of 8.
enum HistoryFixtures {
    typealias Fixtures = DashboardFixtures

    static let trackingStart = LocalDate(year: 2026, month: 3, day: 1)!
    /// Vice blocks on 12…17 March.
    static let lastSixDays = [3, 9, 5, 0, 8, 12]

    static func records() -> [DayRecord] {
        var records: [DayRecord] = []
        var streak = 0
        let start = trackingStart
        for offset in 0..<start.days(to: Fixtures.day) {
            let date = start.adding(days: offset)
            let back = date.days(to: Fixtures.day)
            let vice = back <= 6 ? lastSixDays[6 - back] : offset % 4
            streak = vice <= Fixtures.goal ? streak + 1 : 0
            records.append(
                DayRecord(
                    date: date, viceBlocks: vice, productiveBlocks: 3, goalBlocks: Fixtures.goal,
                    earnedSeconds: 3 * 900, spentSeconds: vice * 900, endingBalanceSeconds: max(0, 3 - vice) * 900,
                    overdraftSeconds: max(0, vice - 3) * 900, streakAfter: streak, synced: true))
        }
        return records
    }

    static func overview(today: TodaySummary = Fixtures.today(viceBlocks: 6)) -> HistoryOverview {
        HistoryOverview(history: records(), today: today, trackingStart: trackingStart)
    }

    static func settings() -> UserSettings {
        var settings = UserSettings(
            userID: UserID("ME000001"), displayName: try? DisplayName(validating: "ada_l"), dayStartHour: 4,
            apps: [
                TrackedApp(id: "tiktok", name: "TikTok", bundleID: "com.zhiliaoapp.musically", category: .vice),
                TrackedApp(
                    id: "youtube", name: "YouTube", bundleID: "com.google.ios.youtube", category: .vice, hidden: true),
                TrackedApp(id: "kindle", name: "Kindle", bundleID: "com.amazon.Lassen", category: .productive),
            ])
        settings.notificationBell = true
        return settings
    }

    /// The solo dashboard data with its history and settings.
    static func solo() -> DashboardContent {
        var data = Fixtures.solo()
        data.history = overview()
        data.settings = settings()
        return data
    }
}
