import Foundation
import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The header line keeps the name, the group's code, the local time and the countdown to the
/// daily reset at every size the dashboard draws in; the brand, the date, the group's size and
/// the speed marker give way whole, in that order, before the name is shortened. What fits is
/// decided on the widest the clock's texts can be, so the name never moves as they change.
@Suite struct HeaderViewTests {
    typealias Fixtures = DashboardFixtures

    static let widths = [60, 61, 62, 70, 80, 100, 120]
    static let names = ["Zoë_名前テスト", "ana", "山田太郎山田太郎山田太郎山田太郎山田太郎", "Maximilian_Alexander"]
    static let group = DashboardContent.GroupSummary(code: "K7Q2XM", memberCount: 12)
    /// The fixture's 14:05, and half a minute after midnight: the longest countdown there is.
    static let times = [
        (Fixtures.now, "14:05", "resets in 9h 55m"),
        (Fixtures.at(hour: 0, minute: 0).addingTimeInterval(30), "00:00", "resets in 23h 59m"),
    ]
    /// Instants whose date and countdown take every width they can: a one-digit day, and
    /// countdowns of `<1m`, `5m`, `45m`, `9h 55m` and `23h 59m`.
    static let ticking: [Date] = [
        Fixtures.now, Fixtures.at(hour: 23, minute: 59).addingTimeInterval(40), Fixtures.at(hour: 23, minute: 55),
        Fixtures.at(hour: 23, minute: 15), Fixtures.at(hour: 0, minute: 0).addingTimeInterval(30),
        Fixtures.now.addingTimeInterval(-10 * 86400),
    ]

    static func data(
        name: String, group: DashboardContent.GroupSummary?, speed: Double, now: Date = Fixtures.now
    ) -> DashboardContent {
        var data = Fixtures.solo()
        data.userName = name
        data.group = group
        data.clockSpeed = speed
        data.now = now
        data.today.nextReset = Fixtures.calendar.nextReset(after: now)
        return data
    }

    static func render(_ data: DashboardContent, width: Int, glyphs: Glyphs = .unicode) -> Frame {
        ScreenRenderer.render(Fixtures.model(data, width: width, height: 24), glyphs: glyphs)
    }

    @Test(arguments: widths)
    func theNameTheCodeTheTimeAndTheCountdownAreAlwaysThere(width: Int) {
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

    /// As the clock runs, the countdown and the date change width; the name and the group stay
    /// exactly where they were, as they were.
    @Test(arguments: widths)
    func theNameAndTheGroupStayPutAsTheClockTicks(width: Int) {
        for name in Self.names {
            for group in [nil, Self.group] {
                for speed in [1.0, 600.0] {
                    var seen: Set<String> = []
                    for now in Self.ticking {
                        let data = Self.data(name: name, group: group, speed: speed, now: now)
                        let line = Self.render(data, width: width).line(0)
                        let right = HeaderView(data: data).rightText(
                            HeaderView(data: data).layout(width: width, glyphs: .unicode), glyphs: .unicode,
                            widest: false)
                        #expect(line.hasSuffix(right.text), "\(line)")
                        seen.insert(String(line.dropLast(right.text.count)).replacingOccurrences(of: " ", with: ""))
                    }
                    #expect(seen.count == 1, "\(width) cols, \(name), ×\(speed): the left part changed: \(seen)")
                }
            }
        }
    }

    /// The reported cases, whole: the code was cut at 60 and at 80 columns.
    @Test(arguments: [
        (60, "ana", true, 1.0, " ana · K7Q2XM · 12 members         14:05 · resets in 9h 55m"),
        (60, "ana", false, 1.0, " ana · no group         Wed 18 Mar 14:05 · resets in 9h 55m"),
        (60, "Zoë_名前テスト", true, 600.0, " Zoë_名前テスト · K7Q2XM    14:05 · ×600 · resets in 9h 55m"),
        (60, "Maximilian_Alexander", true, 600.0, " Maximilian_Alexander · K7Q2XM     14:05 · resets in 9h 55m"),
        (
            80, "Zoë_名前テスト", true, 600.0,
            " Zoë_名前テスト · K7Q2XM · 12 members           14:05 · ×600 · resets in 9h 55m"
        ),
        (
            80, "ana", true, 1.0,
            " ScreenMates  ana · K7Q2XM · 12 members     Wed 18 Mar 14:05 · resets in 9h 55m"
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

    /// A name too long for the narrowest line is shortened, with an ellipsis; the code stays.
    @Test func aLongNameIsShortenedAndTheCodeStays() {
        let data = Self.data(name: "山田太郎山田太郎山田太郎山田太郎山田太郎", group: Self.group, speed: 600)
        let line = Self.render(data, width: 60).line(0)
        #expect(line.hasPrefix(" 山田太郎"), "\(line)")
        #expect(line.contains("… · K7Q2XM "), "\(line)")
        #expect(line.hasSuffix(" 14:05 · resets in 9h 55m "), "\(line)")
    }

    private func expectHeader(
        _ frame: Frame, data: DashboardContent, clock: String, countdown: String, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let line = frame.line(0)
        let g = frame.glyphs
        #expect(CellWidth.of(line) == frame.width, "\(context): \(line)", sourceLocation: sourceLocation)
        FrameTests.expectNoOrphanHalves(frame, sourceLocation: sourceLocation)
        // The countdown ends one blank cell before the edge; the time is there, whole.
        #expect(line.hasSuffix(" \(countdown) "), "\(context): \(line)", sourceLocation: sourceLocation)
        #expect(line.contains(" \(clock) \(g.bullet) "), "\(context): \(line)", sourceLocation: sourceLocation)
        // The group's code, whole, after the name (or what is left of it).
        if let group = data.group {
            #expect(
                line.contains(" \(g.bullet) \(group.code)"), "\(context): no code in \(line)",
                sourceLocation: sourceLocation)
        }
        // The name is shortened, never dropped: at least its first character is shown.
        let first = data.userName.first!
        let shownFirst = g.asciiOnly && !first.isASCII ? "?" : String(first)
        let afterBrand = line.hasPrefix(HeaderView.brand) ? line.dropFirst(HeaderView.brand.count) : Substring(line)
        #expect(afterBrand.hasPrefix(" " + shownFirst), "\(context): \(line)", sourceLocation: sourceLocation)
        // The parts give way in order: the brand first, then the date, the size, the speed.
        let hasBrand = line.hasPrefix(HeaderView.brand)
        let hasDate = line.contains("Wed 18 Mar") || line.contains("Thu 19 Mar")
        let hasSize = line.contains("12 members")
        let speedText = "\(g.times)\(HeaderView.speedText(data.clockSpeed))"
        let hasSpeed = data.clockSpeed == 1 || line.contains(speedText)
        if hasBrand { #expect(hasDate, "\(context): \(line)", sourceLocation: sourceLocation) }
        if hasDate && data.group != nil { #expect(hasSize, "\(context): \(line)", sourceLocation: sourceLocation) }
        if hasSize || hasDate { #expect(hasSpeed, "\(context): \(line)", sourceLocation: sourceLocation) }
        // A part gives way only when the fuller line does not fit.
        let header = HeaderView(data: data)
        let chosen = header.layout(width: frame.width, glyphs: g)
        if let index = HeaderView.layouts.firstIndex(of: chosen), index > 0 {
            let fuller = HeaderView.layouts[index - 1]
            let who = header.who(fuller, toCells: .max, glyphs: g).reduce(0) { $0 + CellWidth.of($1.text) }
            let brand = fuller.brand ? CellWidth.of(HeaderView.brand) : 0
            #expect(
                brand + who + 1 + header.rightText(fuller, glyphs: g, widest: true).cells > frame.width,
                "\(context): a part gave way with room for it: \(line)", sourceLocation: sourceLocation)
        }
    }
}
