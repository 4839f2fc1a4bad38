import Foundation
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// `screenmates prune` as a user runs it: two copies of one home, one pruned, show the same
/// `status --json` (but for when they were asked), the same `export` and the same badges.
@Suite struct PruneEndToEndTests {
    @Test func aPrunedHomeShowsTheSameFiguresAsOneNotPruned() async throws {
        // Sixty days before today, whatever today is: the usage is in the past of the real clock.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let start = formatter.string(from: Date().addingTimeInterval(-60 * 86400)) + "T08:00"
        let plain = Binary.Home()
        let pruned = Binary.Home()
        let setup = try await Binary.run(["setup", "--home", plain.path, "--name", "ana", "--start-at", start])
        #expect(setup.status == 0, "\(setup.stderr)")
        let monitor = try await Binary.run([
            "monitor", "--home", plain.path, "--start-at", start, "--rate", "max", "--count", "3000", "--seed", "7",
            "--quiet",
        ])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        // The same usage in both: the second home is a copy of the first (a monitor stamps events
        // with the time it writes them, which two runs would not share).
        try FileManager.default.copyItem(atPath: plain.path, toPath: pruned.path)
        for home in [plain, pruned] {
            // The daily reset that is due (and the badges it awards) first, for both: nothing to prune yet.
            let nothing = try await Binary.run(["prune", "--home", home.path, "--keep-days", "1000"])
            #expect(nothing.stdout.hasPrefix("Nothing to prune"), "\(nothing.stdout) \(nothing.stderr)")
        }
        func figures(_ home: Binary.Home) async throws -> (status: [String: Any], export: String, badges: String) {
            // `badges` first: it settles what is due (badges earned, their coins and notices).
            let badges = try await Binary.run(["badges", "--home", home.path, "--json"])
            let status = try await Binary.run(["status", "--home", home.path, "--json"])
            var object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            // When it was asked differs between the two homes.
            object["now"] = nil
            // A notice is stamped with the real time it was recorded at (notices recorded at one
            // instant come in either order).
            object["notifications"] = ((object["notifications"] as? [[String: Any]]) ?? []).map { notice in
                ["kind", "day", "title", "text"].map { "\(notice[$0] ?? "")" }.joined(separator: "|")
            }.sorted()
            let export = try await Binary.run(["export", "--home", home.path, "--format", "json"])
            return (object, export.stdout, badges.stdout)
        }
        let before = try await figures(pruned)
        let result = try await Binary.run(["prune", "--home", pruned.path, "--keep-days", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Pruned "), "\(result.stdout)")
        #expect(result.stdout.contains("3000 events folded"), "\(result.stdout)")
        let after = try await figures(pruned)
        let reference = try await figures(plain)
        #expect(NSDictionary(dictionary: after.status) == NSDictionary(dictionary: reference.status))
        #expect(NSDictionary(dictionary: after.status) == NSDictionary(dictionary: before.status))
        #expect(after.export == reference.export && after.export == before.export)
        #expect(after.badges == reference.badges, "\(after.badges)\n---\n\(reference.badges)")
        #expect(after.badges == before.badges)
        // The events themselves are gone; a monitor writing them again adds nothing.
        let again = try await Binary.run([
            "monitor", "--home", pruned.path, "--start-at", start, "--rate", "max", "--count", "3000", "--seed", "7",
            "--quiet",
        ])
        #expect(again.status == 0 || again.status == 64, "\(again.stderr)")
        #expect(
            NSDictionary(dictionary: try await figures(pruned).status) == NSDictionary(dictionary: reference.status))
    }
}

extension PruneEndToEndTests {
    /// `prune_keep_days` in the config: a monitor prunes once a day on its own; `off`, or nothing,
    /// never; fewer than 7 days is refused.
    @Test func theConfigKeyPrunesDailyFromTheMonitor() async throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let start = formatter.string(from: Date().addingTimeInterval(-60 * 86400)) + "T08:00"
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana", "--start-at", start]).status == 0)
        let monitor = try await Binary.run([
            "monitor", "--home", home.path, "--start-at", start, "--rate", "max", "--count", "2000", "--seed", "3",
            "--quiet",
        ])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        let refused = try await Binary.run(["config", "set", "prune_keep_days", "5", "--home", home.path])
        #expect(refused.status != 0 && refused.stderr.contains("7 to 3660"), "\(refused.stderr)")
        let off = try await Binary.run(["config", "set", "prune_keep_days", "off", "--home", home.path])
        #expect(off.status == 0, "\(off.stderr)")
        let on = try await Binary.run(["config", "set", "prune_keep_days", "10", "--home", home.path])
        #expect(on.status == 0, "\(on.stderr)")
        // A monitor on the real clock records one block, runs the reset that is due and prunes
        // what is older than 10 days.
        let now = try await Binary.run(["monitor", "--home", home.path, "--rate", "max", "--count", "1", "--quiet"])
        #expect(now.status == 0, "\(now.stderr)")
        let stored = try LocalStore.open(at: home.path + "/local.sqlite")
        #expect(try stored.eventCount() == 1, "only today's block is left as an event")
        let status = try await Binary.run(["status", "--home", home.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["eventsApplied"] as? Int == 2001)
    }
}
