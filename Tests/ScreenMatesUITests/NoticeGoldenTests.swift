import Foundation
import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// Notices on screen: the toast over the dashboard (never over the panels), the pane at 120×40
/// and the log screen.
@Suite struct NoticeGoldenTests {
    typealias Fixtures = DashboardFixtures

    static func lines(_ data: DashboardContent) -> [DashboardContent.NoticeLine] {
        [
            .init(
                at: data.now, title: "90 % of today's limit", body: "7 of 8 blocks used; 1 left before the limit.",
                severity: .warning),
            .init(
                at: data.now.addingTimeInterval(-3600), title: "75 % of today's limit",
                body: "6 of 8 blocks used; 2 left before the limit.", severity: .warning),
            .init(
                at: data.now.addingTimeInterval(-86_400), title: "Over today's limit",
                body: "9 of 8 blocks used; today's streak is broken. Tomorrow starts afresh.", severity: .alarm),
            .init(
                at: data.now.addingTimeInterval(-90_000), title: "ana\u{1B}[2J went over",
                body: "ana has used 12 of 8 blocks today.\u{7}", severity: .alarm),
        ]
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func aToastOverTheLeaderboard(width: Int, height: Int) {
        var data = Fixtures.solo()
        data.notices = Self.lines(data)
        data.toast = .init(notice: data.notices[0], fading: false)
        let frame = ScreenRenderer.render(Fixtures.model(data, width: width, height: height))
        FrameChecks.expectFitsWidth(frame)
        Golden.check(frame.text, named: "notice-toast-\(width)x\(height)")
        // The panels' numbers stay in view: the toast starts below them.
        let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[2].contains("blocks"))
        #expect(!rows.prefix(7).contains { $0.contains("90 % of today") })
    }

    @Test func theLogListsNewestFirstWithHostileTextMadeInert() {
        var data = Fixtures.solo()
        data.notices = Self.lines(data)
        let frame = ScreenRenderer.render(Fixtures.model(data, width: 80, height: 24, screen: .notices))
        FrameChecks.expectFitsWidth(frame)
        FrameChecks.expectNoUnsafeCharacters(frame.text)
        Golden.check(frame.text, named: "notices-80x24")
        let rows = frame.text.split(separator: "\n").map(String.init)
        let first = rows.firstIndex { $0.contains("90 % of today") } ?? -1
        let second = rows.firstIndex { $0.contains("75 % of today") } ?? -1
        #expect(first >= 0 && first < second)
    }
}
