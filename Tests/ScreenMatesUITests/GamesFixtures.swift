import Foundation
import ScreenMatesCore
import ScreenMatesUI

/// Fixed games data for the challenges, profile and week screens: on the dashboard fixtures'
/// day (Wednesday 18 March 2026), three challenges (a group one Ada is in, with four
/// participants; an open one of the group's; a personal one she kept), four badges, a ledger,
/// and two settled weeks.
enum GamesFixtures {
    typealias Row = GamesData.ChallengeRow
    static let day = DashboardFixtures.day

    static func at(_ offset: Int, hour: Int) -> Date {
        DashboardFixtures.calendar.start(of: day.adding(days: offset)).addingTimeInterval(TimeInterval(hour * 3600))
    }

    static let challenges = [
        Row(
            id: "k2m9qt", summary: "at most 2 blocks of vice apps a day", firstDay: day.adding(days: -2),
            lastDay: day.adding(days: 4), reward: 80, penalty: 40, state: "running until the end of 2026-03-22",
            isGroup: true, joined: true, canForfeit: true,
            participants: [
                .init(rank: 1, name: "ada_l", state: .stillIn, daysKept: 2, isMe: true),
                .init(rank: 1, name: "山田太郎", state: .stillIn, daysKept: 2, isMe: false),
                .init(rank: 3, name: "bob", state: .failed, daysKept: 1, isMe: false),
                .init(rank: 4, name: "José", state: .forfeited, daysKept: 0, isMe: false),
            ]),
        Row(
            id: "p7rw3x", summary: "no youtube 22:00-07:00", firstDay: day.adding(days: 1),
            lastDay: day.adding(days: 7),
            reward: 50, penalty: 25,
            state: "open: join it with `screenmates challenge join p7rw3x` by the end of 2026-03-19", isGroup: true,
            joined: false, canJoin: true,
            participants: [.init(rank: 1, name: "bob", state: .stillIn, daysKept: 0, isMe: false)]),
        Row(
            id: "ab12", summary: "every day within the limit", firstDay: day.adding(days: -9),
            lastDay: day.adding(days: -3),
            reward: 60, penalty: 30, state: "kept"),
    ]

    static let week = GamesData.WeekData(
        rules: .standard,
        upcoming: SettlementRulesChange(
            from: day.adding(days: 5),
            rules: SettlementRules(weekStart: 1, keptDayCoins: 10, overDayCoins: 20, missingDays: .worstCase)),
        current: day.adding(days: -2),
        reminder:
            "2 days not sent to the group; the week closes in 5 days (Monday): sync before then, or the week waits for them.",
        weeks: [
            .init(
                first: day.adding(days: -9),
                members: [
                    .init(
                        name: "ada_l", isMe: true, status: .settled,
                        tally: WeekTally(keptDays: 6, overDays: 1, missingDays: 0), coins: 20),
                    .init(
                        name: "bob", isMe: false, status: .pending,
                        tally: WeekTally(keptDays: 4, overDays: 1, missingDays: 2), coins: 0),
                    .init(
                        name: "山田太郎", isMe: false, status: .settled,
                        tally: WeekTally(keptDays: 7, overDays: 0, missingDays: 0), coins: 35),
                ]),
            .init(
                first: day.adding(days: -16),
                members: [
                    .init(
                        name: "ada_l", isMe: true, status: .settled,
                        tally: WeekTally(keptDays: 3, overDays: 4, missingDays: 0), coins: -25),
                    .init(
                        name: "bob", isMe: false, status: .settled,
                        tally: WeekTally(keptDays: 2, overDays: 0, missingDays: 5), coins: -40),
                ]),
        ])

    static let games = GamesData(
        coins: 135,
        ledger: [
            .init(at: at(-2, hour: 0), amount: 20, reason: "week of 2026-03-09: 6 kept, 1 over"),
            .init(at: at(-3, hour: 0), amount: 60, reason: "challenge ab12 kept"),
            .init(at: at(-3, hour: 0), amount: 50, reason: "badge hard-challenge"),
            .init(at: at(-8, hour: 9), amount: 25, reason: "badge streak-7"),
            .init(at: at(-9, hour: 0), amount: -20, reason: "week of 2026-03-02: 3 kept, 4 over"),
        ],
        challenges: challenges,
        badges: [
            .firstDayKept: day.adding(days: -20), .streak3: day.adding(days: -18), .streak7: day.adding(days: -14),
            .hardChallenge: day.adding(days: -3),
        ],
        week: week, inGroup: true,
        apps: [
            TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice),
            TrackedApp(id: "youtube", name: "YouTube", bundleID: "y", category: .vice),
            TrackedApp(id: "secret", name: "Secret", bundleID: "s", category: .vice, hidden: true),
        ])

    /// The dashboard fixtures' group, with these games.
    static func data() -> DashboardContent {
        var data = DashboardFixtures.bigGroup()
        data.clockSpeed = 1
        data.games = games
        return data
    }

    static func model(_ screen: ScreensModel.Screen, width: Int, height: Int) -> ScreensModel {
        var model = ScreensModel(screen: .dashboard, width: width, height: height, data: data())
        model.openGameScreen(screen)
        return model
    }
}
