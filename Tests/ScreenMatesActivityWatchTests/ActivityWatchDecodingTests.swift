import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import Testing

@testable import ScreenMatesActivityWatch

/// What ActivityWatch sends, read without trusting it: timestamps, events, buckets.
@Suite struct ActivityWatchDecodingTests {
    @Test func timestampsInActivityWatchsFormsAreReadExactly() throws {
        let base = 1_795_168_800.0  // 2026-11-20T10:00:00Z
        let cases: [(String, Double)] = [
            ("2026-11-20T10:00:00+00:00", base),
            ("2026-11-20T10:00:00Z", base),
            ("2026-11-20T10:00:00", base),
            ("2026-11-20T10:00:00.123456+00:00", base + 0.123456),
            ("2026-11-20T11:30:00+01:30", base),
            ("2026-11-20T05:00:00-05:00", base),
            ("2026-11-20 10:00:00.5Z", base + 0.5),
        ]
        for (text, expected) in cases {
            let parsed = try #require(ActivityWatchTimestamp.parse(text), "\(text)")
            #expect(abs(parsed.timeIntervalSince1970 - expected) < 0.000_001, "\(text)")
        }
        let formatted = ActivityWatchTimestamp.format(Date(timeIntervalSince1970: base + 0.25))
        #expect(formatted == "2026-11-20T10:00:00.250000Z")
        #expect(ActivityWatchTimestamp.parse(formatted) == Date(timeIntervalSince1970: base + 0.25))
    }

    @Test func anythingElseIsNotATimestamp() {
        for text in [
            "", "yesterday", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-20T25:00:00Z",
            "2026-11-20T10:00:00+0", "2026-11-20T10:00:00.Z", "2026-11-20T10:00:00Z trailing",
            "99999999-11-20T10:00:00Z", "2026-11-20T10:00:00\u{1B}[2J",
        ] {
            #expect(ActivityWatchTimestamp.parse(text) == nil, "\(text)")
        }
    }

    static func decode(_ json: String) throws -> [ActivityWatchEvent?] {
        try JSONDecoder().decode([LenientEvent].self, from: Data(json.utf8)).map(\.event)
    }

    @Test func aBadEventIsSkippedAloneAndHostileTextIsKeptOnlyAsText() throws {
        let events = try Self.decode(
            """
            [
              {"id": 1, "timestamp": "2026-11-20T10:00:00+00:00", "duration": 60.5,
               "data": {"app": "firefox", "title": "\\u001b]0;pwned\\u0007 YouTube \\u202e"}},
              {"id": 2, "timestamp": "2026-11-20T10:01:00+00:00", "duration": -5, "data": {"app": "x"}},
              {"id": 3, "timestamp": "not a time", "duration": 1, "data": {"app": "x"}},
              {"id": 4, "timestamp": "2026-11-20T10:01:00+00:00", "duration": "long", "data": {"app": "x"}},
              {"id": 5, "timestamp": "2026-11-20T10:01:00+00:00", "duration": 1e308, "data": {"app": 7}},
              {"id": "six", "timestamp": "2026-11-20T10:01:00+00:00", "duration": 2, "data": {"status": "not-afk"}},
              [1, 2, 3],
              null,
              {"timestamp": "2026-11-20T10:01:00+00:00", "duration": 3}
            ]
            """)
        #expect(events.count == 9)
        #expect(events[0]?.app == "firefox" && events[0]?.duration == 60.5)
        #expect(events[0]?.title?.contains("\u{1B}") == true)
        #expect(events[1] == nil && events[2] == nil && events[3] == nil)
        // A huge duration is a number: it decodes, and the span it would make is refused.
        #expect(events[4]?.app == nil)
        #expect(events[4].flatMap { TimeSpan(start: $0.timestamp, seconds: $0.duration) } == nil)
        #expect(events[5]?.id == nil && events[5]?.status == "not-afk")
        #expect(events[6] == nil && events[7] == nil)
        #expect(events[8]?.duration == 3 && events[8]?.app == nil)
    }

    @Test func bucketsAreChosenByTypeAndHost() throws {
        let buckets = [
            ActivityWatchBucket(id: "aw-watcher-window_desk", type: "currentwindow", hostname: "desk"),
            ActivityWatchBucket(id: "aw-watcher-afk_desk", type: "afkstatus", hostname: "desk"),
            ActivityWatchBucket(id: "renamed-windows", type: "currentwindow", hostname: "lap"),
            ActivityWatchBucket(id: "aw-watcher-web-firefox", type: "web.tab.current", hostname: "lap"),
        ]
        let desk = try ActivityWatchSelection.choose(from: buckets, host: nil, localHost: "desk", url: "u")
        #expect(desk.window.id == "aw-watcher-window_desk" && desk.afk?.id == "aw-watcher-afk_desk")
        let lap = try ActivityWatchSelection.choose(from: buckets, host: "lap", localHost: "desk", url: "u")
        #expect(lap.window.id == "renamed-windows" && lap.afk == nil)
        #expect(throws: ActivityWatchError.severalHosts(url: "u", hosts: ["desk", "lap"])) {
            try ActivityWatchSelection.choose(from: buckets, host: nil, localHost: "other", url: "u")
        }
        #expect(throws: ActivityWatchError.noWindowBucket(url: "u", host: "nas", hosts: ["desk", "lap"])) {
            try ActivityWatchSelection.choose(from: buckets, host: "nas", localHost: "desk", url: "u")
        }
        let only = try ActivityWatchSelection.choose(
            from: Array(buckets.prefix(2)), host: nil, localHost: "other", url: "u")
        #expect(only.host == "desk")
        #expect(throws: ActivityWatchError.noWindowBucket(url: "u", host: nil, hosts: [])) {
            try ActivityWatchSelection.choose(from: [], host: nil, localHost: "desk", url: "u")
        }
    }

    @Test func anEventReadAgainIsMergedByIDNotAddedTwice() {
        var cache = BucketCache()
        let start = Date(timeIntervalSince1970: 1_795_168_800)
        cache.fold(ActivityWatchEvent(id: 7, timestamp: start, duration: 60, app: "Code"))
        // The same event grown by a heartbeat, as a reply cut at a later start shows it.
        cache.fold(ActivityWatchEvent(id: 7, timestamp: start.addingTimeInterval(30), duration: 90, app: "Code"))
        cache.fold(ActivityWatchEvent(id: 8, timestamp: start.addingTimeInterval(120), duration: 10, app: "vim"))
        #expect(cache.events.count == 2)
        #expect(cache.events[7]?.timestamp == start && cache.events[7]?.duration == 120)
        cache.drop(endingBefore: start.addingTimeInterval(125))
        #expect(Array(cache.events.keys) == [8])
    }

    @Test func aURLMustBeAnHTTPAddress() {
        #expect(throws: ActivityWatchError.badURL("ftp://x")) { try ActivityWatchClient(url: "ftp://x") }
        #expect(throws: ActivityWatchError.badURL("localhost:5600")) { try ActivityWatchClient(url: "localhost:5600") }
        #expect((try? ActivityWatchClient(url: "http://127.0.0.1:5666/"))?.baseURL == "http://127.0.0.1:5666")
    }

    @Test func messagesSayWhatToDoAndCannotCarryEscapes() {
        let message = ActivityWatchError.noWindowBucket(url: "u", host: "evil\u{1B}[2J", hosts: ["a\u{07}"]).message
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
        #expect(message.contains("--host"))
        #expect(
            ActivityWatchError.unreachable(url: "http://127.0.0.1:5600", detail: "connection refused").message
                .contains("--url"))
    }
}
