import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// Several monitor processes write while a driver kills writers and the dashboard with
/// SIGKILL at random moments and starts them again.
///
/// A monitor's events come from its seed: the same seed gives the same ids in the same order,
/// so a writer started again writes its first events again (they are stored once), and what
/// each seed can ever produce is known beforehand (the same seed run into a scratch home).
/// Against that, after every kill of a writer and at the end:
/// - acknowledged but missing: an id a monitor printed (it prints after the commit) that is
///   not stored — must never happen;
/// - stored but never written: an id stored that no seed produces — must never happen;
/// - stored but not acknowledged: only the last batch of a killed monitor may be committed
///   without being printed, and a seed's stored events have no gaps (a gap is an event lost
///   while later ones were kept).
/// At the end every writer has run to its end: the stored events are exactly those the seeds
/// produce, `status` counts each once, and SQLite finds the database sound.
///
/// Moderate by default; `SCREENMATES_STORM_SIZE=large` runs a longer storm.
@Suite struct FaultStormTests {
    struct Size {
        var writers: Int
        var eventsPerWriter: Int
        var kills: Int

        static var current: Size {
            ProcessInfo.processInfo.environment["SCREENMATES_STORM_SIZE"] == "large"
                ? Size(writers: 4, eventsPerWriter: 4000, kills: 120)
                : Size(writers: 3, eventsPerWriter: 600, kills: 24)
        }
    }

    /// The most events a monitor commits at once (`MonitorRunner.batchLimit`): what a monitor
    /// killed between a commit and printing it may leave stored without acknowledging.
    static let batchLimit = 256

    @Test(.timeLimit(.minutes(15)))
    func killingWritersAndTheDashboardAtRandomLosesNothingAndStoresNothingUnwritten() async throws {
        let size = Size.current
        let home = Binary.Home()
        let binary = Binary.path
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "storm"]).status == 0)
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        let context = "storm seed \(seed)"
        func writerArguments(_ index: Int, home: String) -> [String] {
            ["monitor", "--home", home, "--count", "\(size.eventsPerWriter)", "--seed", "\(1000 + index)"]
        }

        // What each writer's seed produces, in order.
        var possible: [[UUID]] = []
        for index in 0..<size.writers {
            let scratch = Binary.Home()
            #expect(try await Binary.run(["setup", "--home", scratch.path, "--name", "storm"]).status == 0)
            let run = try await Binary.run(
                writerArguments(index, home: scratch.path) + ["--rate", "max"], timeout: 600)
            let ids = run.stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) }
            try #require(ids.count == size.eventsPerWriter && Set(ids).count == ids.count, "\(run.stderr)")
            possible.append(ids)
        }
        let everyPossible = Set(possible.joined())

        func startWriter(_ index: Int) async throws -> SpawnedProcess {
            try await SpawnedProcess(binary, writerArguments(index, home: home.path) + ["--rate", "500"])
        }
        var writers: [SpawnedProcess] = []
        for index in 0..<size.writers { writers.append(try await startWriter(index)) }
        var runs: [[SpawnedProcess]] = Array(repeating: [], count: size.writers)

        /// Ids printed by every run of writer `index` so far.
        func acknowledged(_ index: Int) -> Set<UUID> {
            Set((runs[index] + [writers[index]]).flatMap { $0.lines.compactMap(UUID.init(uuidString:)) })
        }

        /// Checks what writer `index`, just killed, left stored.
        func checkKilledWriter(_ index: Int) throws {
            let stored = Set(try LocalStore.open(at: home.path + "/local.sqlite").allEventIDs())
            let produced = possible[index]
            let printed = Set(runs[index].flatMap { $0.lines.compactMap(UUID.init(uuidString:)) })
            let prefix = produced.firstIndex { !stored.contains($0) } ?? produced.count
            let gaps = produced[prefix...].filter(stored.contains).count
            let missing = printed.subtracting(stored).count
            let unacknowledged = produced[..<prefix].filter { !printed.contains($0) }.count
            let kill = "writer \(index), run \(runs[index].count); \(context)"
            #expect(missing == 0, "\(missing) acknowledged events missing; \(kill)")
            #expect(gaps == 0, "\(gaps) events stored after a missing one; \(kill)")
            #expect(
                unacknowledged <= Self.batchLimit,
                "\(unacknowledged) events stored but never acknowledged (more than one batch); \(kill)")
        }

        let tmux = try await Tmux()
        let dashboard = "\(binary) --home \(home.path) dashboard"
        try await tmux.type(dashboard)
        try await tmux.waitFor("storm (you)")

        var kills = 0
        var dashboardKills = 0
        while kills < size.kills {
            try await Task.sleep(for: .milliseconds(Int(random.next() % 200) + 30))
            let victim = Int(random.next() % UInt64(size.writers + 1))
            if victim == size.writers {
                if let pid = try await tmux.childPID(named: "screenmates") {
                    kill(pid, SIGKILL)
                    dashboardKills += 1
                    try await Task.sleep(for: .milliseconds(50))
                    try await tmux.type(dashboard)
                }
            } else {
                writers[victim].kill()
                await writers[victim].wait()
                runs[victim].append(writers[victim])
                try checkKilledWriter(victim)
                writers[victim] = try await startWriter(victim)
            }
            kills += 1
        }
        for (index, writer) in writers.enumerated() {
            #expect(await writer.wait(timeout: 600) == 0, "writer \(index) did not finish: \(writer.standardError)")
            // The last run went through the whole seed, in order.
            #expect(writer.lines.compactMap(UUID.init(uuidString:)) == possible[index], "writer \(index); \(context)")
        }

        let store = try LocalStore.open(at: home.path + "/local.sqlite")
        let stored = try store.allEventIDs()
        let storedSet = Set(stored)
        let everyAcknowledged = (0..<size.writers).reduce(into: Set<UUID>()) { $0.formUnion(acknowledged($1)) }
        let summary = "\(context), \(kills) kills (\(dashboardKills) of the dashboard)"
        #expect(everyAcknowledged.subtracting(storedSet).isEmpty, "acknowledged but missing; \(summary)")
        #expect(storedSet.subtracting(everyPossible).isEmpty, "stored but never written by a monitor; \(summary)")
        #expect(storedSet == everyPossible, "stored differs from what the writers wrote; \(summary)")
        #expect(stored.count == size.writers * size.eventsPerWriter, "\(summary)")
        #expect(try store.integrityCheck() == ["ok"], "\(summary)")
        // Each event counted once in the figures derived from them.
        let status = try await Binary.run(["status", "--home", home.path, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(json["eventsApplied"] as? Int == stored.count, "\(summary)")
        #expect(dashboardKills > 0 || kills < 4, "the storm never hit the dashboard; \(summary)")
    }
}
