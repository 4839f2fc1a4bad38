import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct TimeFormatTests {
    /// 2026-11-21T14:31:02Z.
    private static let instant = Date(timeIntervalSince1970: 1_795_271_462)

    // MARK: Durations

    @Test(arguments: [
        (0, "0m"), (59, "0m"), (60, "1m"), (2700, "45m"), (3599, "59m"), (3600, "1h"), (5400, "1h 30m"), (7200, "2h"),
        (7259, "2h"), (7260, "2h 1m"), (86_400, "24h"), (-300, "0m"),
    ])
    func duration(_ seconds: Int, _ text: String) {
        #expect(TimeFormat.duration(seconds: seconds) == text)
    }

    @Test func durationRoundsDownToWholeMinutes() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...400_000)) { seconds in
            let text = TimeFormat.duration(seconds: seconds)
            // Parse the text back: "Hh Mm", "Hh" or "Mm".
            var minutes = 0
            for part in text.split(separator: " ") {
                let number = Int(part.dropLast())!
                switch part.last {
                case "h": minutes += number * 60
                case "m":
                    #expect((0...59).contains(number))
                    minutes += number
                default: Issue.record("unexpected part \(part) in \(text)")
                }
            }
            #expect(minutes == seconds / 60, "\(seconds) s → \(text)")
        }
    }

    @Test(arguments: [
        (0.0, "0m"), (-5.0, "0m"), (0.2, "<1m"), (59.0, "<1m"), (59.5, "1m"), (60.0, "1m"), (5400.0, "1h 30m"),
        (34_140.0, "9h 29m"),
    ])
    func countdown(_ seconds: Double, _ text: String) {
        #expect(TimeFormat.countdown(seconds: seconds) == text)
    }

    // MARK: Relative times

    @Test func relativeTimes() {
        let now = Self.instant
        #expect(TimeFormat.relative(nil, now: now) == "never")
        #expect(TimeFormat.relative(now, now: now) == "just now")
        #expect(TimeFormat.relative(now.addingTimeInterval(-30), now: now) == "just now")
        #expect(TimeFormat.relative(now.addingTimeInterval(-59), now: now) == "just now")
        #expect(TimeFormat.relative(now.addingTimeInterval(-60), now: now) == "1m ago")
        #expect(TimeFormat.relative(now.addingTimeInterval(-4 * 60), now: now) == "4m ago")
        #expect(TimeFormat.relative(now.addingTimeInterval(-3599), now: now) == "59m ago")
        #expect(TimeFormat.relative(now.addingTimeInterval(-3600), now: now) == "1h ago")
        #expect(TimeFormat.relative(now.addingTimeInterval(-3 * 3600), now: now) == "3h ago")
        #expect(TimeFormat.relative(now.addingTimeInterval(-86_399), now: now) == "23h ago")
        #expect(TimeFormat.relative(now.addingTimeInterval(-2 * 86_400), now: now) == "2d ago")
        // A member's clock slightly ahead of ours is not "in the future".
        #expect(TimeFormat.relative(now.addingTimeInterval(20), now: now) == "just now")
    }

    // MARK: Clock and ISO 8601

    @Test func clock() {
        #expect(TimeFormat.clock(hour: 9, minute: 5) == "09:05")
        #expect(TimeFormat.clock(hour: 14, minute: 30) == "14:30")
        #expect(TimeFormat.clock(hour: 0, minute: 0) == "00:00")
    }

    @Test func iso8601() {
        #expect(TimeFormat.iso8601(Self.instant) == "2026-11-21T14:31:02Z")
    }

    @Test func iso8601RoundTrips() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...4_102_444_800)) { seconds in
            let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = TimeFormat.iso8601(instant)
            #expect(
                TimeFormat.parseInstant(text, timeZone: TimeZone(identifier: "Asia/Kolkata")!) == instant, "\(text)")
        }
    }

    // MARK: Parsing

    @Test func parsesUTC() {
        let zone = TimeZone(identifier: "America/New_York")!
        #expect(TimeFormat.parseInstant("2026-11-21T14:31:02Z", timeZone: zone) == Self.instant)
        #expect(TimeFormat.parseInstant("  2026-11-21T14:31:02Z ", timeZone: zone) == Self.instant)
    }

    @Test func parsesAnOffset() {
        let zone = TimeZone(identifier: "UTC")!
        #expect(TimeFormat.parseInstant("2026-11-21T15:31:02+01:00", timeZone: zone) == Self.instant)
        #expect(
            TimeFormat.parseInstant("2026-11-21T14:31:02+01:00", timeZone: zone)
                == Self.instant.addingTimeInterval(-3600))
        #expect(TimeFormat.parseInstant("2026-11-21T09:01:02-05:30", timeZone: zone) == Self.instant)
    }

    @Test func parsesFractionalSeconds() {
        let parsed = TimeFormat.parseInstant("2026-11-21T14:31:02.250Z", timeZone: TimeZone(identifier: "UTC")!)
        #expect(parsed.map { abs($0.timeIntervalSince(Self.instant) - 0.25) < 0.001 } == true)
    }

    @Test func parsesLocalTimesInTheGivenZone() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let newYork = TimeZone(identifier: "America/New_York")!
        let kolkata = TimeZone(identifier: "Asia/Kolkata")!
        // Berlin is UTC+1 in November, New York UTC-5, Kolkata UTC+5:30.
        #expect(TimeFormat.parseInstant("2026-11-21T15:31", timeZone: berlin) == Self.instant.addingTimeInterval(-2))
        #expect(TimeFormat.parseInstant("2026-11-21T15:31:02", timeZone: berlin) == Self.instant)
        #expect(TimeFormat.parseInstant("2026-11-21T09:31:02", timeZone: newYork) == Self.instant)
        #expect(
            TimeFormat.parseInstant("2026-11-21T14:31", timeZone: newYork)
                == Self.instant.addingTimeInterval(5 * 3600 - 2))
        // A bare date is local midnight.
        #expect(
            TimeFormat.parseInstant("2026-11-21", timeZone: kolkata)
                == Date(timeIntervalSince1970: 1_795_219_200 - 19_800))
    }

    @Test(arguments: [
        "2026-13-01", "2026-13-01T10:00", "2026-02-30", "yesterday", "", "   ", "2026-11-21T25:00", "2026-11-21T14:60",
        "2026-11-21T14", "2026-11-21T14:31:61", "2026-11-21T1a:00", "21/11/2026", "2026-11-21 14:31", "now",
        "2026-11-21T14:31:02:00",
    ])
    func rejects(_ text: String) {
        #expect(TimeFormat.parseInstant(text, timeZone: TimeZone(identifier: "UTC")!) == nil)
    }
}
