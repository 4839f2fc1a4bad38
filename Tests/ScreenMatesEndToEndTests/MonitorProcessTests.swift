import Foundation
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// `screenmates monitor` as its own process: what it prints is what is stored, several write
/// at once, replays change nothing, and faults give clear errors and lose nothing.
@Suite struct MonitorProcessTests {
    let binary = Binary.path

    private func monitor(_ home: Binary.Home, _ arguments: [String]) async throws -> SpawnedProcess {
        try await SpawnedProcess(binary, ["monitor", "--home", home.path] + arguments)
    }

    private func storedIDs(_ home: Binary.Home) throws -> [UUID] {
        try LocalStore.open(at: home.path + "/local.sqlite").allEventIDs()
    }

    @Test func everyPrintedIDIsStoredAndTheCountIsKept() async throws {
        let home = Binary.Home()
        _ = try await Binary.run(["setup", "--home", home.path, "--name", "ana"])
        let process = try await monitor(home, ["--rate", "max", "--count", "700", "--seed", "9"])
        #expect(await process.wait() == 0, "\(process.standardError)")
        let printed = process.lines.compactMap(UUID.init(uuidString:))
        #expect(printed.count == 700)
        #expect(Set(printed).count == 700)
        #expect(Set(try storedIDs(home)) == Set(printed))
    }

    @Test func fourMonitorsAtOnceLoseNothingAndNeverReportALock() async throws {
        let home = Binary.Home()
        _ = try await Binary.run(["setup", "--home", home.path, "--name", "ana"])
        var monitors: [SpawnedProcess] = []
        for seed in 1...4 {
            monitors.append(try await monitor(home, ["--rate", "max", "--count", "1500", "--seed", "\(seed)"]))
        }
        var printed = Set<UUID>()
        for process in monitors {
            #expect(await process.wait() == 0)
            #expect(!process.standardError.contains("locked"), "\(process.standardError)")
            printed.formUnion(process.lines.compactMap(UUID.init(uuidString:)))
        }
        let stored = try storedIDs(home)
        #expect(printed.count == 6000)
        #expect(stored.count == 6000)
        #expect(Set(stored) == printed)
    }

    /// The same two monitors three times on one simulated day: the second and third runs
    /// write the same events (the same ids) again, and every figure stays as the first run left
    /// it. Each run starts a little later on that day, since a clock never goes back into the
    /// home's past.
    @Test func replayingTheSameEventsThreeTimesLeavesEveryFigureUnchanged() async throws {
        let home = Binary.Home()
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--start-at", "2026-11-21T08:00"])
        #expect(setup.status == 0, "\(setup.stderr)")
        var statuses: [String] = []
        for round in 0..<3 {
            // The evening binge's 25 blocks end at 22:45, so every run starts after that.
            func at(_ minute: Int) -> String { "2026-11-21T23:" + String(format: "%02d", 10 * round + minute) }
            for (offset, arguments) in [
                ["--rate", "max", "--count", "120", "--seed", "5"],
                ["--scenario", "evening-binge", "--rate", "max", "--count", "25", "--seed", "6"],
            ].enumerated() {
                let process = try await monitor(home, arguments + ["--start-at", at(offset)])
                #expect(await process.wait() == 0, "round \(round): \(process.standardError)")
            }
            let status = try await Binary.run(
                ["status", "--home", home.path, "--json", "--start-at", at(5)])
            #expect(status.status == 0, "round \(round): \(status.stderr)")
            // Keys are sorted; only the moment of asking may differ.
            statuses.append(
                status.stdout.split(separator: "\n").filter { !$0.contains("\"now\"") }.joined(separator: "\n"))
        }
        #expect(statuses[0].contains("\"eventsApplied\" : 145"), "\(statuses[0])")
        #expect(statuses[0].contains("\"date\" : \"2026-11-21\""), "\(statuses[0])")
        #expect(statuses[1] == statuses[0])
        #expect(statuses[2] == statuses[0])
    }

    @Test func badOptionsAreRefused() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        for (arguments, expected) in [
            (["--rate", "fast"], "--rate"), (["--rate", "-2"], "--rate"), (["--count", "0"], "--count"),
            (["--scenario", "no-such-scenario"], "no scenario"), (["--speed", "0"], "--speed"),
        ] {
            let result = try await Binary.run(["monitor", "--home", home.path] + arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aMonitorOnADamagedDatabaseExplainsAndStops() async throws {
        let home = Binary.Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let junk = Data(repeating: 0x61, count: 8192)
        _ = FileManager.default.createFile(atPath: home.path + "/local.sqlite", contents: junk)
        let result = try await Binary.run(["monitor", "--home", home.path, "--count", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("damaged") && result.stderr.contains("recover"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: home.path + "/local.sqlite") == junk)
    }
}

/// The dashboard picks up what a separate monitor process commits, by itself (no key pressed).
/// On a simulated day (the dashboard runs its clock from 10:00 and publishes it; the monitors
/// follow it), so that midnight on the real clock cannot reset the figure it waits for.
@Suite struct LivePickupTests {
    @Test func theBlocksFigureRisesWithEachCommittedEvent() async throws {
        let home = Binary.Home()
        // Only vice apps, so every event adds a block.
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--goal", "96", "--start-at", "2026-11-21T09:00"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let store = try LocalStore.open(at: home.path + "/local.sqlite")
        var settings = try #require(try store.settings())
        settings.apps = settings.apps.filter { $0.category == .vice }
        try store.updateSettings(settings)
        // The config file `setup` wrote would win over the store and bring the productive apps
        // back; without it, the dashboard writes a new one from these settings.
        try FileManager.default.removeItem(atPath: home.path + "/config.toml")
        let tmux = try await Tmux()
        try await tmux.type("\(Binary.path) --home \(home.path) dashboard --speed 1 --start-at 2026-11-21T10:00")
        try await tmux.waitFor("0 / 96 blocks")
        for event in 1...8 {
            let monitor = try await SpawnedProcess(
                Binary.path, ["monitor", "--home", home.path, "--rate", "max", "--count", "1", "--seed", "\(event)"])
            #expect(await monitor.wait() == 0, "\(monitor.standardError)")
            // Generous, for a loaded machine; how fast it is belongs to the benchmark.
            try await tmux.waitFor("\(event) / 96 blocks", timeout: 30)
        }
        try await tmux.keys("q")
    }
}
