import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// `screenmates monitor --source activitywatch` and `screenmates import activitywatch` against
/// a real ActivityWatch server: the tests create buckets and post window, AFK and heartbeat
/// events through its REST API, as the watchers do, and check the blocks in the store.
///
/// The usage is dated at 10:00 on a day the follower reads (yesterday or today: see
/// `followedMorning`) or, for imports, two and three days ago, so every span lies whole inside
/// one day in the past whatever the time of day the tests run at, midnight included.
@Suite(.enabled(if: ActivityWatchServer.available, ActivityWatchServer.skipReason), .serialized)
struct ActivityWatchEndToEndTests: RealUsageTests {
    static let host = "e2e-desk"
    static let windows = "aw-watcher-window_e2e-desk"
    static let afk = "aw-watcher-afk_e2e-desk"
    /// In every window title; must never reach a file, a log or an output.
    static let secret = "SECRET-TITLE-5f1c"

    /// 10:00 local time, `daysAgo` days before today.
    /// `export --format json`'s days by their date.
    static func days(_ json: String) throws -> [String: [String: Any]] {
        let days = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return Dictionary(days.compactMap { day in (day["date"] as? String).map { ($0, day) } }) { a, _ in a }
    }

    static func morning(daysAgo: Int) -> Date {
        let calendar = DayCalendar(timeZone: .current)
        let today = calendar.day(containing: Date())
        return calendar.instant(on: today.adding(days: -daysAgo), hour: 10, minute: 0)
    }

    /// 10:00 today once it is past noon, else 10:00 yesterday: in the past, and still on a
    /// day the follower reads (yesterday and today) for at least 12 hours, so a test that runs
    /// across midnight finds it there.
    static func followedMorning() -> Date {
        let calendar = DayCalendar(timeZone: .current)
        let now = Date()
        let today = calendar.day(containing: now)
        let morning = calendar.instant(on: today, hour: 10, minute: 0)
        return now.timeIntervalSince(morning) >= 2 * 3600
            ? morning : calendar.instant(on: today.adding(days: -1), hour: 10, minute: 0)
    }

    static func minutes(_ base: Date, _ minutes: Double) -> Date { base.addingTimeInterval(minutes * 60) }

    static func window(_ base: Date, _ from: Double, _ to: Double, _ app: String, _ title: String) -> [String: Any] {
        ActivityWatchServer.event(minutes(base, from), seconds: (to - from) * 60, ["app": app, "title": title])
    }

    static func presence(_ base: Date, _ from: Double, _ to: Double, _ status: String) -> [String: Any] {
        ActivityWatchServer.event(minutes(base, from), seconds: (to - from) * 60, ["status": status])
    }

    func follow(_ home: Binary.Home, _ server: ActivityWatchServer) async throws -> SpawnedProcess {
        try await SpawnedProcess(
            Binary.path,
            ["monitor", "--home", home.path, "--source", "activitywatch", "--url", server.url, "--host", Self.host])
    }

    /// Waits until the follower has printed `count` distinct ids (each a committed block).
    /// Every byte of every file in the home.
    func homeBytes(_ home: Binary.Home) throws -> Data {
        var all = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            all.append(FileManager.default.contents(atPath: home.path + "/" + name) ?? Data())
        }
        return all
    }

    @Test func followingCountsTheActiveTimeOfTrackedAppsAndNeverKeepsATitle() async throws {
        let server = try await ActivityWatchServer.start()
        defer { server.process.kill() }
        let home = Binary.Home()
        try await setUp(home, vice: ["YouTube"], productive: ["vscode", "GnuCash"])
        try await server.createBucket(Self.windows, type: "currentwindow", host: Self.host)
        try await server.createBucket(Self.afk, type: "afkstatus", host: Self.host)
        let t = Self.followedMorning()
        try await server.post(
            [
                Self.window(t, 0, 35, "Code", "main.swift \(Self.secret)"),
                Self.window(t, 35, 55, "firefox", "Cats \(Self.secret) - YouTube — Mozilla Firefox"),
                Self.window(t, 55, 71, "gnucash", "Books \(Self.secret)"),
                Self.window(t, 71, 76, "org.example.Mystery", "\(Self.secret)"),
            ], to: Self.windows)
        // Away from minute 20 to 30: Code has 25 active minutes, one block.
        try await server.post(
            [Self.presence(t, 0, 20, "not-afk"), Self.presence(t, 20, 30, "afk"), Self.presence(t, 30, 80, "not-afk")],
            to: Self.afk)

        let monitor = try await follow(home, server)
        let ids = try await waitForIDs(monitor, 3)
        #expect(ids.count == 3, "\(monitor.standardError)")
        // A few more polls change nothing.
        try await Task.sleep(for: .seconds(5))
        monitor.kill(SIGTERM)
        #expect(await monitor.wait(timeout: 30) == 143)

        let events = try storedEvents(home)
        #expect(Set(events.map(\.id)) == ids)
        #expect(events.map(\.appID).sorted() == ["custom-gnucash", "vscode", "youtube"])
        #expect(events.first { $0.appID == "youtube" }?.category == .vice)
        #expect(events.allSatisfy { $0.seconds == 900 })
        #expect(monitor.standardError.contains("away time from \(Self.afk)"), "\(monitor.standardError)")

        let seen = try await Binary.run(["apps", "seen", "--home", home.path, "--json"])
        #expect(seen.status == 0, "\(seen.stderr)")
        let entries = try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.count == 1)
        #expect(entries?.first?["name"] as? String == "org.example.Mystery")
        #expect(entries?.first?["seconds"] as? Int == 300)

        // Filing it: from now on it is one of the productive apps, in the database and the file.
        let added = try await Binary.run(["apps", "add", "org.example.Mystery", "--productive", "--home", home.path])
        #expect(added.status == 0, "\(added.stderr)")
        let config = String(
            decoding: FileManager.default.contents(atPath: home.path + "/config.toml") ?? Data(), as: UTF8.self)
        #expect(config.contains("org.example.Mystery"), "\(config)")
        let filed = try await Binary.run(["apps", "seen", "--home", home.path, "--json"])
        let left = try JSONSerialization.jsonObject(with: Data(filed.stdout.utf8)) as? [Any]
        #expect(left?.isEmpty == true, "\(filed.stdout)")
        let neither = try await Binary.run(["apps", "add", "Slack", "--home", home.path])
        #expect(neither.status == 64 && neither.stderr.contains("--vice or --productive"), "\(neither.stderr)")

        // Importing the same day afterwards finds every block there already.
        let again = try await Binary.run(
            ["import", "activitywatch", "--home", home.path, "--url", server.url, "--host", Self.host])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("3 of them were there already"), "\(again.stdout)")
        #expect(try storedEvents(home).count == 3)

        // Window titles reach no file, log or output.
        let everything = try homeBytes(home)
        #expect(everything.range(of: Data(Self.secret.utf8)) == nil)
        for output in [monitor.lines.joined(), monitor.standardError, seen.stdout, again.stdout, again.stderr] {
            #expect(!output.contains(Self.secret))
        }
        let export = try await Binary.run(["export", "--home", home.path, "--format", "json", "--include-hidden"])
        #expect(!export.stdout.contains(Self.secret))
        await server.stop()
    }

    @Test func aGrowingHeartbeatCountsOnceAndAServerRestartedMidFollowIsCaughtUp() async throws {
        var server = try await ActivityWatchServer.start()
        defer { server.process.kill() }
        let home = Binary.Home()
        try await setUp(home, vice: ["YouTube"], productive: ["vscode"])
        let t = Self.followedMorning()
        // Started before the watcher made its bucket: it says what it waits for, then follows.
        let monitor = try await follow(home, server)
        defer { monitor.kill() }
        #expect(try await waitForError(monitor, "no window bucket"), "\(monitor.standardError)")
        try await server.createBucket(Self.windows, type: "currentwindow", host: Self.host)
        #expect(try await waitForError(monitor, "no AFK bucket"), "\(monitor.standardError)")
        // One heartbeat a minute, merged by ActivityWatch into one event that grows in place.
        for minute in 0...16 {
            try await server.heartbeat(
                Self.window(t, Double(minute), Double(minute), "Code", "notes.md"), to: Self.windows, pulsetime: 90)
        }
        #expect(try await server.eventCount(Self.windows) == 1)
        let first = try await waitForIDs(monitor, 1)
        #expect(first.count == 1, "\(monitor.standardError)")

        // The server goes away; the follower says so and keeps trying.
        let port = server.port
        await server.stop()
        #expect(try await waitForError(monitor, "does not answer"), "\(monitor.standardError)")
        // It comes back (in-memory: empty); the watcher sends the day again and goes on to 31 min.
        server = try await ActivityWatchServer.start(port: port)
        try await server.createBucket(Self.windows, type: "currentwindow", host: Self.host)
        for minute in 0...31 {
            try await server.heartbeat(
                Self.window(t, Double(minute), Double(minute), "Code", "notes.md"), to: Self.windows, pulsetime: 90)
        }
        let both = try await waitForIDs(monitor, 2)
        #expect(both.count == 2 && both.isSuperset(of: first), "\(monitor.standardError)")
        #expect(try await waitForError(monitor, "can be read again"), "\(monitor.standardError)")
        try await Task.sleep(for: .seconds(3))
        monitor.kill(SIGTERM)
        #expect(await monitor.wait(timeout: 30) == 143)
        let events = try storedEvents(home)
        #expect(events.count == 2 && Set(events.map(\.id)) == both)
        await server.stop()
    }

    @Test func anImportBringsPastDaysInOnceWithTheirHistory() async throws {
        let server = try await ActivityWatchServer.start()
        defer { server.process.kill() }
        let home = Binary.Home()
        try await setUp(home, vice: ["YouTube"], productive: ["vscode"])
        try await server.createBucket(Self.windows, type: "currentwindow", host: Self.host)
        let threeDaysAgo = Self.morning(daysAgo: 3)
        let twoDaysAgo = Self.morning(daysAgo: 2)
        try await server.post(
            [
                Self.window(threeDaysAgo, 0, 40, "code-oss", "a"),
                Self.window(threeDaysAgo, 40, 56, "firefox", "Live - YouTube"),
                Self.window(twoDaysAgo, 0, 31, "Code", "b"),
                Self.window(twoDaysAgo, 31, 60, "Slack", "c"),
            ], to: Self.windows)
        let calendar = DayCalendar(timeZone: .current)
        let since = calendar.day(containing: threeDaysAgo).adding(days: -1).iso8601
        let arguments = [
            "import", "activitywatch", "--home", home.path, "--url", server.url, "--host", Self.host, "--since", since,
        ]
        let first = try await Binary.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("5 blocks (1 vice, 4 productive) on 2 days."), "\(first.stdout)")
        #expect(first.stdout.contains("no AFK bucket"), "\(first.stdout)")
        #expect(first.stdout.contains("Slack 29m"), "\(first.stdout)")
        let exported = try await Binary.run(["export", "--home", home.path, "--format", "json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let imported = [calendar.day(containing: threeDaysAgo).iso8601, calendar.day(containing: twoDaysAgo).iso8601]
        let byDate = try Self.days(exported.stdout)
        let older = try #require(byDate[imported[0]])
        let newer = try #require(byDate[imported[1]])
        #expect(older["viceBlocks"] as? Int == 1 && older["productiveBlocks"] as? Int == 2)
        #expect(newer["viceBlocks"] as? Int == 0 && newer["productiveBlocks"] as? Int == 2)

        let second = try await Binary.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("5 of them were there already"), "\(second.stdout)")
        // The imported days are exported as before (a midnight in between adds yesterday to the
        // finished days, and nothing else).
        let exportedAgain = try await Binary.run(["export", "--home", home.path, "--format", "json"])
        let again = try Self.days(exportedAgain.stdout)
        for date in imported {
            #expect(
                again[date].map { NSDictionary(dictionary: $0) } == byDate[date].map { NSDictionary(dictionary: $0) })
        }
        #expect(try storedEvents(home).count == 5)
        await server.stop()
    }

    @Test func hostileEventsNeitherCrashNorReachTheTerminal() async throws {
        let server = try await ActivityWatchServer.start()
        defer { server.process.kill() }
        let home = Binary.Home()
        try await setUp(home, vice: ["YouTube"], productive: ["vscode"])
        try await server.createBucket(Self.windows, type: "currentwindow", host: Self.host)
        try await server.createBucket(Self.afk, type: "afkstatus", host: Self.host)
        let t = Self.morning(daysAgo: 2)
        let hostile: [[String: Any]] = [
            Self.window(t, 0, 20, "evil\u{1B}]0;pwned\u{07}\u{1B}[2J", "\u{1B}[31mred\u{202E}"),
            ActivityWatchServer.event(Self.minutes(t, 20), seconds: -300, ["app": "Code", "title": "negative"]),
            ActivityWatchServer.event(Self.minutes(t, 30), seconds: 3e9, ["app": "Code", "title": "a century"]),
            ActivityWatchServer.event(Self.minutes(t, 40), seconds: 60, ["app": String(repeating: "x", count: 5000)]),
            Self.window(t, 50, 70, "firefox", "YouTube \u{1B}]8;;http://x\u{07}link"),
            Self.presence(t, 0, 120, "\u{1B}[2Jnot-afk"),
        ]
        // Some of these ActivityWatch itself may refuse; whatever it keeps is read.
        for event in hostile {
            _ = try? await server.request("POST", "/api/0/buckets/\(Self.windows)/events", json: [event])
        }
        let result = try await Binary.run(
            ["import", "activitywatch", "--home", home.path, "--url", server.url, "--host", Self.host])
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try await Binary.run(["apps", "seen", "--home", home.path])
        #expect(seen.status == 0, "\(seen.stderr)")
        for output in [result.stdout, result.stderr, seen.stdout, seen.stderr] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        }
        // Blocks never stand for more time than has passed since the first event.
        let events = try storedEvents(home)
        let passed = Date().timeIntervalSince(t)
        #expect(Double(events.count * 900) <= passed)
        await server.stop()
    }

    @Test func aServerThatNeverAnswersIsSaidAndTheMonitorKeepsTrying() async throws {
        let home = Binary.Home()
        try await setUp(home, vice: ["YouTube"], productive: ["vscode"])
        // A port that takes connections (the kernel's backlog) and never answers.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, 16) == 0
            }
        }
        try #require(listening)
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        let monitor = try await SpawnedProcess(
            Binary.path, ["monitor", "--home", home.path, "--source", "activitywatch", "--url", url])
        defer { monitor.kill() }
        #expect(
            try await waitForError(monitor, "no answer within 10 s", timeout: .seconds(90)), "\(monitor.standardError)")
        #expect(!monitor.hasEnded)
        monitor.kill(SIGTERM)
        #expect(await monitor.wait(timeout: 30) == 143)
        #expect(monitor.standardError.components(separatedBy: "no answer within").count == 2)
    }

    @Test func withoutASourceTheMonitorSaysWhatItTriedAndHowToChoose() async throws {
        let home = Binary.Home()
        try await setUp(home, vice: ["YouTube"], productive: ["vscode"])
        let port = try ActivityWatchServer.freePort()
        // No desktop, a tmux directory holding no server, and no terminal (alone in a process
        // namespace: the xterms and panes of other tests are not there): nothing else to follow.
        let noTmux = NSTemporaryDirectory() + "sm-no-tmux-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: noTmux, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: noTmux) }
        let result = try await Binary.runAlone(
            ["monitor", "--home", home.path],
            environment: ["SCREENMATES_ACTIVITYWATCH_URL": "http://127.0.0.1:\(port)", "TMUX_TMPDIR": noTmux],
            removing: ["DISPLAY", "TMUX", "WAYLAND_DISPLAY", "SWAYSOCK", "HYPRLAND_INSTANCE_SIGNATURE"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("http://127.0.0.1:\(port)"), "\(result.stderr)")
        #expect(result.stderr.contains("--source simulated") && result.stderr.contains("--source activitywatch"))
        #expect(result.stderr.contains("DISPLAY is not set") && result.stderr.contains("no terminal is in use"))

        let imported = try await Binary.run(
            ["import", "activitywatch", "--home", home.path, "--url", "http://127.0.0.1:\(port)"])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("does not answer"), "\(imported.stderr)")

        for (arguments, expected) in [
            (["--source", "activitywatch", "--seed", "3"], "--seed belongs to the simulated monitor"),
            (["--source", "simulated", "--url", "http://127.0.0.1:1"], "--url is for --source activitywatch"),
            (
                ["--source", "carrier-pigeon"],
                "--source takes auto, activitywatch, x11, sway, hyprland, gnome, kde, terminal, simulated"
            ),
            (["--source", "terminal", "--url", "http://127.0.0.1:1"], "--url is for --source activitywatch"),
            (["--source", "x11", "--rate", "3"], "--rate belongs to the simulated monitor"),
            (["--source", "activitywatch", "--url", "localhost:5600"], "is not an http:// URL"),
        ] {
            let refused = try await Binary.run(["monitor", "--home", home.path] + arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains(expected), "\(arguments): \(refused.stderr)")
        }
    }
}
