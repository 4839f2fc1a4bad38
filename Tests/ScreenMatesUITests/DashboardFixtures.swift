import Foundation
import ScreenMatesCore
import ScreenMatesTestSupport
import ScreenMatesUI

/// Fixed, fully deterministic dashboard data for the golden and model tests: a UTC calendar, a
/// fixed clock (Wednesday 18 March 2026, 14:05), a ledger folded from hand-made events with
/// fixed ids, and hand-made leaderboards. Nothing here reads the real clock or time zone.
enum DashboardFixtures {
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)
    static let day = LocalDate(year: 2026, month: 3, day: 18)!
    static let now = at(hour: 14, minute: 5)
    static let goal = 8

    /// An instant on the fixture day.
    static func at(hour: Int, minute: Int) -> Date {
        calendar.start(of: day).addingTimeInterval(TimeInterval(hour * 3600 + minute * 60))
    }

    /// A fixed id: `00000000-0000-0000-0000-000000000042` for 42.
    static func uuid(_ number: Int) -> UUID {
        UUID(uuidString: "00000000-0000-0000-0000-" + String(format: "%012d", number))!
    }

    /// `vice` vice blocks and 6 productive ones: 2 vice blocks first (overdraft), then the
    /// productive ones, then the rest of the vice ones, so balance and overdraft both show.
    static func events(viceBlocks vice: Int) -> [UsageEvent] {
        var events: [UsageEvent] = []
        func add(_ category: AppCategory, _ app: String, hour: Int, minute: Int) {
            events.append(
                UsageEvent(
                    id: uuid(events.count + 1), appID: app, category: category, seconds: 900,
                    occurredAt: at(hour: hour, minute: minute)))
        }
        for index in 0..<min(vice, 2) { add(.vice, "tiktok", hour: 8, minute: 15 * index) }
        for index in 0..<6 { add(.productive, "xcode", hour: 9 + index / 4, minute: 15 * (index % 4)) }
        for index in 0..<max(0, vice - 2) { add(.vice, "youtube", hour: 11 + index / 4, minute: 15 * (index % 4)) }
        return events
    }

    static func today(viceBlocks: Int) -> TodaySummary {
        TodaySummary(
            date: day, ledger: DailyLedger.fold(events(viceBlocks: viceBlocks), exchangeRate: 1.0), goal: goal,
            streak: StreakManager.Summary(current: 4, best: 9), nextReset: calendar.nextReset(after: now))
    }

    static func ago(_ seconds: TimeInterval) -> Date { now.addingTimeInterval(-seconds) }

    /// The same ranked members for today, and scaled-up totals for the week and the month.
    static func leaderboards(_ members: [LeaderboardMember]) -> [LeaderboardPeriod: [LeaderboardEntry]] {
        func scaled(_ factor: Int) -> [LeaderboardEntry] {
            Leaderboard.rank(
                members.map { member in
                    var member = member
                    member.blocks = member.blocks.map { $0 * factor + 1 }
                    return member
                })
        }
        return [.today: Leaderboard.rank(members), .week: scaled(3), .month: scaled(12)]
    }

    static func me(blocks: Int) -> LeaderboardMember {
        LeaderboardMember(
            id: UserID("ME000001"), name: "ada_l", blocks: blocks, streak: 4, lastActive: ago(90), isMe: true)
    }

    /// Just the user, without a group, in the warning state (6 of 8 blocks).
    static func solo() -> DashboardContent {
        DashboardContent(
            userName: "ada_l", group: nil, calendar: calendar, now: now, clockSpeed: 1, today: today(viceBlocks: 6),
            leaderboards: leaderboards([me(blocks: 6)]), source: "demo monitor")
    }

    /// Over the limit (11 of 8 blocks), with a store warning in the footer.
    static func overLimit() -> DashboardContent {
        DashboardContent(
            userName: "ada_l", group: DashboardContent.GroupSummary(code: "K7Q2XM", memberCount: 1), calendar: calendar,
            now: now, clockSpeed: 1, today: today(viceBlocks: 11), leaderboards: leaderboards([me(blocks: 11)]),
            warning: "store locked; numbers from 14:01")
    }

    static let longName = "Maximilian_Alexander_Wolfeschlegelsteinhausenbergerdorff_the_Magnificent_Third_of_Nowhere"

    /// Names that must never reach the terminal as they are.
    static let hostileNames = ["\u{1B}[31mred\u{1B}[0m", "evil\u{7}bell", "rtl\u{202E}txt", "zero\u{200B}width"]

    /// Twelve members: wide CJK and emoji names, a name far too long for its column, an idle
    /// member and names carrying escape sequences and control, bidi and zero-width characters.
    static func bigGroupMembers() -> [LeaderboardMember] {
        [
            me(blocks: 6),
            LeaderboardMember(id: UserID("M0000002"), name: "山田太郎", blocks: 2, streak: 12, lastActive: ago(240)),
            LeaderboardMember(id: UserID("M0000003"), name: "🎉party", blocks: 3, streak: 1, lastActive: ago(3 * 3600)),
            LeaderboardMember(id: UserID("M0000004"), name: "José", blocks: 4, streak: 7, lastActive: ago(30)),
            LeaderboardMember(id: UserID("M0000005"), name: longName, blocks: 5, streak: 2, lastActive: ago(600)),
            LeaderboardMember(
                id: UserID("M0000006"), name: hostileNames[0], blocks: 7, streak: 0, lastActive: ago(7200)),
            LeaderboardMember(
                id: UserID("M0000007"), name: hostileNames[1], blocks: 8, streak: 3, lastActive: ago(50_000)),
            LeaderboardMember(id: UserID("M0000008"), name: hostileNames[2], blocks: 9, streak: 0, lastActive: ago(60)),
            LeaderboardMember(
                id: UserID("M0000009"), name: hostileNames[3], blocks: 1, streak: 5, lastActive: ago(1200)),
            LeaderboardMember(
                id: UserID("M0000010"), name: "長い名前の人長い名前の人長い名前の人長い名前の人長い名前の人", blocks: 12, streak: 0,
                lastActive: ago(5 * 86400)),
            LeaderboardMember(id: UserID("M0000011"), name: "bob", blocks: 0, streak: 30, lastActive: ago(2 * 86400)),
            LeaderboardMember(id: UserID("M0000012"), name: "idle_ivy", blocks: nil, streak: 3, lastActive: nil),
        ]
    }

    /// The twelve-member group, on a clock running 60 times faster than real time.
    static func bigGroup() -> DashboardContent {
        DashboardContent(
            userName: "ada_l", group: DashboardContent.GroupSummary(code: "K7Q2XM", memberCount: 12),
            calendar: calendar,
            now: now, clockSpeed: 60, today: today(viceBlocks: 6), leaderboards: leaderboards(bigGroupMembers()),
            source: "demo monitor")
    }

    /// `count` plain members `member01`…, the user among them.
    static func crowd(_ count: Int) -> DashboardContent {
        let members = (1...count).map { index in
            index == 7
                ? me(blocks: 6)
                : LeaderboardMember(
                    id: UserID("C" + String(format: "%07d", index)), name: String(format: "member%02d", index),
                    blocks: index / 3, streak: index % 9, lastActive: ago(TimeInterval(index * 97)))
        }
        return DashboardContent(
            userName: "ada_l", group: DashboardContent.GroupSummary(code: "K7Q2XM", memberCount: count),
            calendar: calendar, now: now, clockSpeed: 1, today: today(viceBlocks: 6),
            leaderboards: leaderboards(members))
    }

    static func model(
        _ data: DashboardContent?, width: Int, height: Int, screen: ScreensModel.Screen = .dashboard
    ) -> ScreensModel {
        ScreensModel(screen: screen, width: width, height: height, data: data)
    }
}
