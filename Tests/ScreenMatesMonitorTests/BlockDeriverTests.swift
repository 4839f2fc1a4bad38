import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesMonitor
import Testing

/// Active time to blocks: focus and presence in, blocks out, whatever the slicing.
@Suite struct BlockDeriverTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let calendar = DayCalendar(timeZone: utc, dayStartHour: 0)
    static let day = LocalDate(iso8601: "2026-11-20")!
    static let dayStart = TimeSpan.milliseconds(calendar.start(of: day))
    static let youtube = TrackedApp(id: "youtube", name: "YouTube", bundleID: "y", category: .vice)
    static let code = TrackedApp(id: "vscode", name: "Visual Studio Code", bundleID: "c", category: .productive)
    static let rules = [
        DesktopAppRule(id: "firefox", names: ["firefox"], browser: true),
        DesktopAppRule(id: "youtube", titles: ["YouTube"]),
        DesktopAppRule(id: "vscode", names: ["Code", "code-oss"]),
    ]
    static let deriver = BlockDeriver(
        source: "activitywatch", host: "desk", blockSeconds: 900, calendar: calendar,
        matcher: AppMatcher(apps: [youtube, code], rules: rules))
    static let endOfDay = calendar.start(of: day.adding(days: 1))

    /// Minutes after 00:00 UTC on the test day.
    static func span(_ from: Double, _ to: Double) -> TimeSpan {
        TimeSpan(start: dayStart + Int64(from * 60_000), end: dayStart + Int64(to * 60_000))
    }

    static func focus(_ app: String, _ from: Double, _ to: Double, title: String = "") -> FocusSpan {
        FocusSpan(span: span(from, to), app: app, title: title)
    }

    @Test func aFullBlockLengthOfActiveTimeIsOneBlockStampedWhenItsLastSecondPassed() {
        let usage = Self.deriver.derive(
            ActivityTimeline(focus: [Self.focus("code-oss", 60, 80)], present: [Self.span(0, 600)]), day: Self.day,
            until: Self.endOfDay)
        #expect(usage.events.count == 1)
        #expect(usage.events[0].appID == "vscode" && usage.events[0].category == .productive)
        #expect(usage.events[0].seconds == 900)
        #expect(usage.events[0].occurredAt == TimeSpan.date(Self.span(0, 75).end - 1))
        #expect(usage.trackedMilliseconds["vscode"] == Int64(20 * 60_000))
    }

    @Test func timeAwayIsNotCounted() {
        // 30 minutes focused, but away for 20 of them: 10 active minutes, no block.
        let away = Self.deriver.derive(
            ActivityTimeline(
                focus: [Self.focus("Code", 0, 30)], present: [Self.span(0, 5), Self.span(25, 30)]),
            day: Self.day, until: Self.endOfDay)
        #expect(away.events.isEmpty)
        #expect(away.trackedMilliseconds["vscode"] == Int64(10 * 60_000))
        // Without a presence signal, focus alone counts: two blocks.
        let focusOnly = Self.deriver.derive(
            ActivityTimeline(focus: [Self.focus("Code", 0, 30)], present: nil), day: Self.day, until: Self.endOfDay)
        #expect(focusOnly.events.count == 2)
    }

    @Test func aSiteInABrowserCountsAsTheSiteAndOtherWindowsAreSeenUnplaced() {
        let usage = Self.deriver.derive(
            ActivityTimeline(
                focus: [
                    Self.focus("firefox", 0, 16, title: "Cats - YouTube — Mozilla Firefox"),
                    Self.focus("firefox", 16, 40, title: "Bank — Mozilla Firefox"),
                    Self.focus("Slack", 40, 50, title: "general"),
                ], present: nil), day: Self.day, until: Self.endOfDay)
        #expect(usage.events.map(\.appID) == ["youtube"])
        #expect(usage.unplacedMilliseconds == ["firefox": 24 * 60_000, "Slack": 10 * 60_000])
    }

    @Test func theRemainderNeverCarriesIntoTheNextDay() {
        // 10 minutes before midnight and 10 after: no full block on either day.
        let timeline = ActivityTimeline(focus: [Self.focus("Code", 1430, 1450)], present: nil)
        let today = Self.deriver.derive(timeline, day: Self.day, until: .distantFuture)
        let tomorrow = Self.deriver.derive(timeline, day: Self.day.adding(days: 1), until: .distantFuture)
        #expect(today.events.isEmpty && tomorrow.events.isEmpty)
        #expect(today.trackedMilliseconds["vscode"] == Int64(10 * 60_000))
        #expect(tomorrow.trackedMilliseconds["vscode"] == Int64(10 * 60_000))
        // A block ending exactly at midnight belongs to the day it was used.
        let late = Self.deriver.derive(
            ActivityTimeline(focus: [Self.focus("Code", 1425, 1440)], present: nil), day: Self.day,
            until: .distantFuture)
        #expect(late.events.count == 1)
        #expect(Self.calendar.day(containing: late.events[0].occurredAt) == Self.day)
    }

    @Test func timeNotYetPassedAndHostileDurationsCountOnlyUpToNow() {
        // A window that claims to last a year counts up to "now" (minute 40) and no further.
        let hostile = FocusSpan(
            span: TimeSpan(start: Self.dayStart, end: Self.dayStart + 365 * 86_400_000), app: "Code", title: "")
        let usage = Self.deriver.derive(
            ActivityTimeline(focus: [hostile], present: nil), day: Self.day,
            until: TimeSpan.date(Self.span(0, 40).end))
        #expect(usage.events.count == 2)
        #expect(usage.trackedMilliseconds["vscode"] == Int64(40 * 60_000))
        #expect(TimeSpan(start: Date(), seconds: -5) == nil)
        #expect(TimeSpan(start: Date(), seconds: .infinity) == nil)
        #expect(TimeSpan(start: Date(), seconds: .nan) == nil)
        #expect(TimeSpan(start: Date(), seconds: 1e300) == nil)
    }

    @Test func timeTwoApplicationsClaimCountsForNeither() {
        let usage = Self.deriver.derive(
            ActivityTimeline(
                focus: [Self.focus("Code", 0, 20), Self.focus("firefox", 10, 30, title: "YouTube")], present: nil),
            day: Self.day, until: Self.endOfDay)
        #expect(usage.trackedMilliseconds == ["vscode": 10 * 60_000, "youtube": 10 * 60_000])
        #expect(usage.events.isEmpty)
    }

    @Test func blockIDsDependOnEveryPartOfTheirKeyAndNothingElse() {
        let base = BlockID.make(
            source: "activitywatch", host: "desk", day: "2026-11-20", appID: "youtube", number: 1)
        #expect(
            base
                == BlockID.make(
                    source: "activitywatch", host: "desk", day: "2026-11-20", appID: "youtube",
                    number: 1))
        let others = [
            BlockID.make(
                source: "x11", host: "desk", day: "2026-11-20", appID: "youtube", number: 1),
            BlockID.make(
                source: "activitywatch", host: "lap", day: "2026-11-20", appID: "youtube", number: 1),
            BlockID.make(
                source: "activitywatch", host: "desk", day: "2026-11-21", appID: "youtube", number: 1
            ),
            BlockID.make(
                source: "activitywatch", host: "desk", day: "2026-11-20", appID: "tiktok", number: 1),
            BlockID.make(
                source: "activitywatch", host: "desk", day: "2026-11-20", appID: "youtube", number: 2
            ),
            // The separator cannot be smuggled in through a field.
            BlockID.make(
                source: "activitywatch|desk", host: "", day: "2026-11-20", appID: "youtube",
                number: 1),
        ]
        #expect(Set(others + [base]).count == others.count + 1)
    }

    @Test func aDayDerivedAgainWithAnotherBlockLengthKeepsItsBlocksNumbers() {
        let timeline = ActivityTimeline(focus: [Self.focus("Code", 0, 60)], present: nil)
        let quarter = Self.deriver.derive(timeline, day: Self.day, until: .distantFuture)
        let half = BlockDeriver(
            source: "activitywatch", host: "desk", blockSeconds: 1800, calendar: Self.calendar,
            matcher: Self.deriver.matcher
        ).derive(timeline, day: Self.day, until: .distantFuture)
        #expect(quarter.events.count == 4 && half.events.count == 2)
        // The store keeps the first two blocks it has; nothing is counted once per length.
        #expect(Set(half.events.map(\.id)).isSubset(of: Set(quarter.events.map(\.id))))
    }

    // MARK: Properties

    /// Focus on three apps (one unplaced, one a site) and presence, within two days.
    static let timelineGen = Generator<ActivityTimeline, Shrink.None<ActivityTimeline>> { rng in
        let apps: [(String, String)] = [
            ("Code", ""), ("firefox", "Funny - YouTube"), ("Slack", "general"), ("code-oss", ""),
        ]
        var cursor = Double(Int.random(in: 0...2000, using: &rng))
        var focus: [FocusSpan] = []
        for _ in 0..<Int.random(in: 0...30, using: &rng) {
            let length = Double(Int.random(in: 1...40, using: &rng))
            let (app, title) = apps.randomElement(using: &rng)!
            focus.append(Self.focus(app, cursor, cursor + length, title: title))
            cursor += length + Double(Int.random(in: 0...5, using: &rng))
        }
        let present: [TimeSpan]? =
            Bool.random(using: &rng)
            ? nil
            : (0..<Int.random(in: 0...10, using: &rng)).map { _ in
                let from = Double(Int.random(in: 0...2800, using: &rng))
                return Self.span(from, from + Double(Int.random(in: 1...120, using: &rng)))
            }
        return ActivityTimeline(focus: focus, present: present)
    }

    /// Cuts every span into random pieces and shuffles everything.
    static func resliced(_ timeline: ActivityTimeline, using rng: inout some RandomNumberGenerator)
        -> ActivityTimeline
    {
        func cut(_ span: TimeSpan) -> [TimeSpan] {
            var pieces: [TimeSpan] = []
            var start = span.start
            while start < span.end {
                let end = min(span.end, start + Int64.random(in: 1...(20 * 60_000), using: &rng))
                pieces.append(TimeSpan(start: start, end: end))
                if end == span.end { break }
                // Sometimes the pieces overlap a little, as re-read events do.
                start = Bool.random(using: &rng) ? end : max(start + 1, end - 1000)
            }
            return pieces
        }
        let focus = timeline.focus.flatMap { focus in
            cut(focus.span).map { FocusSpan(span: $0, app: focus.app, title: focus.title) }
        }
        let duplicates = focus.filter { _ in Int.random(in: 0...4, using: &rng) == 0 }
        return ActivityTimeline(
            focus: (focus + duplicates).shuffled(using: &rng),
            present: timeline.present.map { $0.flatMap(cut).shuffled(using: &rng) })
    }

    @Test func anySlicingOfTheSameSpansGivesTheSameBlocks() async {
        let pair = Generator<(ActivityTimeline, UInt64), Shrink.None<(ActivityTimeline, UInt64)>> { rng in
            (Self.timelineGen.run(using: &rng), rng.next())
        }
        await propertyCheck(count: 200, input: pair) { timeline, seed in
            var rng = SeededGenerator(seed: seed)
            let other = Self.resliced(timeline, using: &rng)
            for day in [Self.day, Self.day.adding(days: 1)] {
                let a = Self.deriver.derive(timeline, day: day, until: .distantFuture)
                let b = Self.deriver.derive(other, day: day, until: .distantFuture)
                #expect(a == b)
            }
        }
    }

    @Test func blocksNeverStandForMoreTimeThanPassedOrWasActive() async {
        await propertyCheck(count: 200, input: Self.timelineGen) { timeline in
            for day in [Self.day, Self.day.adding(days: 1)] {
                let usage = Self.deriver.derive(timeline, day: day, until: .distantFuture)
                let interval = Self.calendar.interval(of: day)
                let window = TimeSpan(
                    start: TimeSpan.milliseconds(interval.lowerBound), end: TimeSpan.milliseconds(interval.upperBound))
                var active = TimeSpan.union(timeline.focus.compactMap { $0.span.clipped(to: window) })
                if let present = timeline.present {
                    active = TimeSpan.intersection(active, TimeSpan.union(present))
                }
                let blockTime = Int64(usage.events.count) * 900_000
                #expect(blockTime <= TimeSpan.total(active))
                for (app, milliseconds) in usage.trackedMilliseconds {
                    #expect(Int64(usage.events.filter { $0.appID == app }.count) == milliseconds / 900_000)
                }
                #expect(usage.events.allSatisfy { interval.contains($0.occurredAt) })
                #expect(Set(usage.events.map(\.id)).count == usage.events.count)
            }
        }
    }

    @Test func moreDataNeverTakesABlockBack() async {
        let pair = Generator<(ActivityTimeline, Int), Shrink.None<(ActivityTimeline, Int)>> { rng in
            (Self.timelineGen.run(using: &rng), Int.random(in: 0...2880, using: &rng))
        }
        await propertyCheck(count: 200, input: pair) { timeline, minute in
            // What a follower sees at `minute`, and later with everything.
            let now = TimeSpan.date(Self.span(0, Double(minute)).end)
            let early = Self.deriver.derive(timeline, day: Self.day, until: now)
            let late = Self.deriver.derive(timeline, day: Self.day, until: .distantFuture)
            #expect(Set(early.events.map(\.id)).isSubset(of: Set(late.events.map(\.id))))
        }
    }
}
