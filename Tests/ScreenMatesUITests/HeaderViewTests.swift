import Foundation
import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The header line keeps the local time and the countdown to the daily reset at every size the
/// dashboard draws in; the name and group are shortened first, and the date and the speed
/// marker give way only when even a short name does not fit beside them.
@Suite struct HeaderViewTests {
    typealias Fixtures = DashboardFixtures

    static let widths = [60, 61, 62, 80, 120]
    static let names = ["Zoë_名前テスト", "ana", "山田太郎山田太郎山田太郎山田太郎山田太郎", "Maximilian_Alexander"]
    static let group = DashboardData.GroupSummary(code: "K7Q2XM", memberCount: 12)
    /// The fixture's 14:05, and half a minute after midnight: the longest countdown there is.
    static let times = [
        (Fixtures.now, "14:05", "resets in 9h 55m"),
        (Fixtures.at(hour: 0, minute: 0).addingTimeInterval(30), "00:00", "resets in 23h 59m"),
    ]

    static func data(
        name: String, group: DashboardData.GroupSummary?, speed: Double, now: Date = Fixtures.now
    ) -> DashboardData {
        var data = Fixtures.solo()
        data.userName = name
        data.group = group
        data.clockSpeed = speed
        data.now = now
        return data
    }

    static func render(_ data: DashboardData, width: Int, glyphs: Glyphs = .unicode) -> Frame {
        ScreenRenderer.render(Fixtures.model(data, width: width, height: 24), glyphs: glyphs)
    }

    @Test(arguments: widths)
    func theTimeAndTheCountdownAreAlwaysThereAndNothingRunsPastTheEdge(width: Int) {
        for name in Self.names {
            for group in [nil, Self.group] {
                for speed in [1, 600, 0.5] {
                    for glyphs in [Glyphs.unicode, .ascii] {
                        for (now, clock, countdown) in Self.times {
                            let data = Self.data(name: name, group: group, speed: speed, now: now)
                            expectHeader(
                                Self.render(data, width: width, glyphs: glyphs), data: data, clock: clock,
                                countdown: countdown,
                                "\(width) cols, \(name), \(group?.code ?? "no group"), ×\(speed), \(clock)")
                        }
                    }
                }
            }
        }
    }

    /// The reported cases, whole: each lost its countdown before.
    @Test(arguments: [
        (60, "Zoë_名前テスト", true, 600.0, " ScreenMates  Zoë_名前テス… 14:05 · ×600 · resets in 9h 55m"),
        (61, "Zoë_名前テスト", true, 600.0, " ScreenMates  Zoë_名前テスト 14:05 · ×600 · resets in 9h 55m"),
        (62, "Zoë_名前テスト", true, 600.0, " ScreenMates  Zoë_名前テスト  14:05 · ×600 · resets in 9h 55m"),
        (60, "Zoë_名前テスト", true, 1.0, " ScreenMates  Zoë_名前… Wed 18 Mar 14:05 · resets in 9h 55m"),
        (60, "ana", false, 600.0, " ScreenMates  ana · no gro… 14:05 · ×600 · resets in 9h 55m"),
        (61, "ana", false, 600.0, " ScreenMates  ana Wed 18 Mar 14:05 · ×600 · resets in 9h 55m"),
        (
            80, "Zoë_名前テスト", true, 600.0,
            " ScreenMates  Zoë_名前テスト · K7Q2… Wed 18 Mar 14:05 · ×600 · resets in 9h 55m"
        ),
        (
            120, "Zoë_名前テスト", true, 600.0,
            " ScreenMates  Zoë_名前テスト · K7Q2XM · 12 members"
                + String(repeating: " ", count: 27) + "Wed 18 Mar 14:05 · ×600 · resets in 9h 55m"
        ),
    ])
    func theReportedCases(width: Int, name: String, inGroup: Bool, speed: Double, expected: String) {
        let frame = Self.render(Self.data(name: name, group: inGroup ? Self.group : nil, speed: speed), width: width)
        #expect(frame.line(0) == expected + " ")
    }

    @Test func aCutGroupKeepsItsSeparatorAndNeverEndsInASpace() {
        let g = Glyphs.unicode
        let name = " ada_l"
        let who = " ada_l · no group"
        #expect(HeaderView.shortened(who, name: name, toCells: 17, glyphs: g) == who)
        #expect(HeaderView.shortened(who, name: name, toCells: 13, glyphs: g) == " ada_l · no…")
        #expect(HeaderView.shortened(who, name: name, toCells: 12, glyphs: g) == " ada_l · no…")
        #expect(HeaderView.shortened(who, name: name, toCells: 10, glyphs: g) == " ada_l · …")
        #expect(HeaderView.shortened(who, name: name, toCells: 9, glyphs: g) == " ada_l")
        #expect(HeaderView.shortened(who, name: name, toCells: 5, glyphs: g) == " ada…")
        #expect(HeaderView.shortened(who, name: name, toCells: 0, glyphs: g) == "")
    }

    private func expectHeader(
        _ frame: Frame, data: DashboardData, clock: String, countdown: String, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let line = frame.line(0)
        let g = frame.glyphs
        #expect(CellWidth.of(line) == frame.width, "\(context): \(line)", sourceLocation: sourceLocation)
        FrameTests.expectNoOrphanHalves(frame, sourceLocation: sourceLocation)
        // The countdown ends one blank cell before the edge; the time is there, whole.
        #expect(line.hasSuffix(" \(countdown) "), "\(context): \(line)", sourceLocation: sourceLocation)
        #expect(line.contains(" \(clock) \(g.bullet) "), "\(context): \(line)", sourceLocation: sourceLocation)
        #expect(line.hasPrefix(HeaderView.brand), "\(context): \(line)", sourceLocation: sourceLocation)
        // The name is shortened, never dropped: at least its first character is shown.
        let first = data.userName.first!
        let shownFirst = g.asciiOnly && !first.isASCII ? "?" : String(first)
        #expect(
            line.dropFirst(HeaderView.brand.count).hasPrefix(" " + shownFirst), "\(context): \(line)",
            sourceLocation: sourceLocation)
        // The date gives way only when even a short name does not fit beside it, and before the
        // speed marker does.
        let right = HeaderView(data: data).rightCandidates(glyphs: g)
        let shortest = min(CellWidth.of(" " + data.userName), HeaderView.shortestName)
        if !line.contains("Wed 18 Mar") {
            #expect(
                CellWidth.of(HeaderView.brand) + shortest + 1 + CellWidth.of(right[0]) > frame.width,
                "\(context): the date was dropped with room for it: \(line)", sourceLocation: sourceLocation)
        }
        if data.clockSpeed != 1 {
            let speed = "\(g.times)\(HeaderView.speedText(data.clockSpeed))"
            #expect(
                line.contains(speed) || !line.contains("Wed 18 Mar"),
                "\(context): the speed went before the date: \(line)", sourceLocation: sourceLocation)
        }
    }
}
