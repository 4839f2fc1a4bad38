import CSV
import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesStore
import Testing

/// History, export and the config file through the real binary.
@Suite(.serialized) struct HistoryEndToEndTests {
    let binary = Binary.path

    /// A home tracked since two days ago, with 9 vice blocks (over the goal of 8) the day
    /// before yesterday and 3 yesterday. Returns the home and the first of those days.
    private func homeWithTwoDaysOfUsage() async throws -> (Binary.Home, LocalDate) {
        let home = Binary.Home()
        let setup = try await Binary.run(["setup", "--home", home.path, "--name", "ana", "--goal", "8"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let calendar = DayCalendar(timeZone: .current)
        let first = calendar.day(containing: Date()).adding(days: -2)
        var events: [UsageEvent] = []
        for (offset, count) in [(0, 9), (1, 3)] {
            let start = calendar.instant(on: first.adding(days: offset), hour: 10, minute: 0)
            for index in 0..<count {
                events.append(
                    UsageEvent(
                        id: UUID(), appID: "tiktok", category: .vice, seconds: 900,
                        occurredAt: start.addingTimeInterval(Double(index * 900))))
            }
        }
        let path = home.path + "/local.sqlite"
        try LocalStore.open(at: path).record(events)
        // As if set up two days ago and not opened since.
        try await DatabasePool(path: path).write { db in
            try db.execute(
                sql: "UPDATE profile SET tracking_start = ?, last_reset = ?, last_reset_at = NULL",
                arguments: [first.iso8601, first.iso8601])
        }
        return (home, first)
    }

    @Test func hOpensTheHistoryScreenAndEscGoesBack() async throws {
        let (home, _) = try await homeWithTwoDaysOfUsage()
        let tmux = try await Tmux(width: 100, height: 30)
        try await tmux.type("\(binary) --home \(home.path) dashboard; echo EX\"\"IT=$?")
        let dashboard = try await tmux.waitFor("ana (you)")
        #expect(dashboard.contains("last 7d"), "no sparkline:\n\(dashboard)")
        try await tmux.keys("h")
        let history = try await tmux.waitFor("this month")
        for text in ["History", "last 7 days", "9/8", "3/8", "today", "this week", "best", "over the limit"] {
            #expect(history.contains(text), "missing \(text) in\n\(history)")
        }
        #expect(history.contains("█"), "no bars in\n\(history)")
        try await tmux.keys("Escape")
        let back = try await tmux.waitFor { $0.contains("Leaderboard") && !$0.contains("this month") }
        #expect(back.contains("Leaderboard"), "\(back)")
        try await tmux.keys("q")
        #expect(try await tmux.waitFor("EXIT=").contains("EXIT=0"))
    }

    /// Runs `body`, which sets up a home on today's date, once more if the day changed while it
    /// ran (a test on the real clock may straddle midnight): what it returns then belongs to one
    /// day. A day is far longer than two runs.
    private func onOneDay<T>(_ body: () async throws -> T) async throws -> T {
        let calendar = DayCalendar(timeZone: .current)
        let day = calendar.day(containing: Date())
        let value = try await body()
        if calendar.day(containing: Date()) == day { return value }
        return try await body()
    }

    @Test func exportWritesTheFinishedDaysAsCSVAndJSON() async throws {
        let (home, first, csv, written, listing, json) = try await onOneDay {
            let (home, first) = try await homeWithTwoDaysOfUsage()
            let file = home.path + "/out/days.csv"
            try FileManager.default.createDirectory(atPath: home.path + "/out", withIntermediateDirectories: true)
            let csv = try await Binary.run(["export", "--home", home.path, "--format", "csv", "--output", file])
            let written = try? String(contentsOfFile: file, encoding: .utf8)
            let listing = try FileManager.default.contentsOfDirectory(atPath: home.path + "/out")
            let json = try await Binary.run(["export", "--home", home.path, "--format", "json", "--days", "1"])
            return (home, first, csv, written, listing, json)
        }
        _ = home
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.contains("Exported 2 days"), "\(csv.stdout)")
        let reader = try CSVReader(string: try #require(written), hasHeaderRow: true)
        #expect(reader.headerRow?.first == "date")
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        #expect(rows.map { $0[0] } == [first.iso8601, first.adding(days: 1).iso8601])
        #expect(rows.map { $0[1] } == ["9", "3"])
        #expect(rows.map { $0[4] } == ["true", "false"])
        // Nothing is left beside the file.
        #expect(listing == ["days.csv"])
        #expect(json.status == 0, "\(json.stderr)")
        let days = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(days.count == 1)
        #expect(days.first?["viceBlocks"] as? Int == 3)
        #expect(days.first?["date"] as? String == first.adding(days: 1).iso8601)
    }

    @Test func exportRefusesBadInputWithAReasonAndWritesNothing() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let cases: [([String], Int32, String)] = [
            (["--format", "xml"], 64, "csv or json"),
            (["--format", "csv", "--days", "-3"], 64, "--days must be 1 or more"),
            (["--format", "csv", "--days", "0"], 64, "--days must be 1 or more"),
            (["--days", "3"], 64, "--format"),
            (["--format", "csv", "--output", home.path + "/no/such/dir/out.csv"], 1, "Cannot write"),
            (["--format", "json", "--output", home.path], 1, "Cannot write"),
        ]
        for (arguments, status, expected) in cases {
            let result = try await Binary.run(["export", "--home", home.path] + arguments)
            #expect(result.status == status, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments) wrote \(result.stdout)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(!left.contains { $0.contains(".tmp-") }, "\(left)")
    }

    @Test func aMalformedConfigLineIsNamedAndTheRestStillApplies() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let config = home.path + "/config.toml"
        #expect(FileManager.default.fileExists(atPath: config), "setup writes the config file")
        try "theme = dark\nday_start_hour = 25\ndaily_goal = 5\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let status = try await Binary.run(["status", "--home", home.path, "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stderr.contains("config.toml line 2 (day_start_hour)"), "\(status.stderr)")
        #expect(status.stdout.contains("\"dayStartHour\" : 0"), "the saved value stays: \(status.stdout)")
        #expect(status.stdout.contains("\"dailyGoalBlocks\" : 5"), "the good line applies: \(status.stdout)")
        let check = try await Binary.run(["config", "check", "--home", home.path])
        #expect(check.status == 1)
        #expect(check.stderr.contains("line 2 (day_start_hour)"), "\(check.stderr)")
        // `config set` refuses an out-of-range value, changing nothing, and takes a good one.
        let refused = try await Binary.run(["config", "set", "day_start_hour", "25", "--home", home.path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("out of range"), "\(refused.stderr)")
        let set = try await Binary.run(["config", "set", "day_start_hour", "4", "--home", home.path])
        #expect(set.status == 0, "\(set.stderr)")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        #expect(text == "theme = dark\nday_start_hour = 4\ndaily_goal = 5\n")
        #expect(try await Binary.run(["config", "check", "--home", home.path]).status == 0)
        let show = try await Binary.run(["config", "show", "--home", home.path])
        #expect(show.stdout.contains("day_start_hour = 4  # config.toml"), "\(show.stdout)")
        #expect(show.stdout.contains("block_minutes = 15  # saved"), "\(show.stdout)")
    }
}
