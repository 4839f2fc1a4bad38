import Foundation
import ScreenMatesCore
import ScreenMatesStore
import Testing

/// Several monitor processes write while a driver kills writers and the dashboard with
/// SIGKILL at random moments and starts them again. At the end the stored events are exactly
/// the ones the writers acknowledged (printed after commit), none twice, and SQLite finds the
/// database sound.
///
/// Moderate by default; `SCREENMATES_FAULT_STORM=large` runs a longer storm.
@Suite struct FaultStormTests {
    struct Size {
        var writers: Int
        var eventsPerWriter: Int
        var kills: Int

        static var current: Size {
            ProcessInfo.processInfo.environment["SCREENMATES_FAULT_STORM"] == "large"
                ? Size(writers: 4, eventsPerWriter: 4000, kills: 120)
                : Size(writers: 3, eventsPerWriter: 600, kills: 24)
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func killingWritersAndTheDashboardAtRandomLosesNothingAndDuplicatesNothing() throws {
        let size = Size.current
        let home = Binary.Home()
        let binary = Binary.path
        #expect(try Binary.run(["setup", "--home", home.path, "--name", "storm"]).status == 0)
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)

        func startWriter(_ index: Int) throws -> SpawnedProcess {
            try SpawnedProcess(
                binary,
                [
                    "monitor", "--home", home.path, "--rate", "500", "--count", "\(size.eventsPerWriter)", "--seed",
                    "\(1000 + index)",
                ])
        }
        var writers = try (0..<size.writers).map(startWriter)
        var finished: [SpawnedProcess] = []

        let tmux = try Tmux()
        let dashboard = "\(binary) --home \(home.path) dashboard"
        try tmux.type(dashboard)
        try tmux.waitFor("storm (you)")

        var kills = 0
        var dashboardKills = 0
        while kills < size.kills {
            Thread.sleep(forTimeInterval: Double(Int(random.next() % 200) + 30) / 1000)
            let victim = Int(random.next() % UInt64(size.writers + 1))
            if victim == size.writers {
                if let pid = try tmux.childPID(named: "screenmates") {
                    kill(pid, SIGKILL)
                    dashboardKills += 1
                    Thread.sleep(forTimeInterval: 0.05)
                    try tmux.type(dashboard)
                }
            } else {
                writers[victim].kill()
                writers[victim].wait()
                finished.append(writers[victim])
                writers[victim] = try startWriter(victim)
            }
            kills += 1
        }
        for writer in writers {
            #expect(writer.wait(timeout: 300) == 0, "a writer did not finish: \(writer.standardError)")
        }
        finished += writers

        var acknowledged = Set<UUID>()
        for process in finished { acknowledged.formUnion(process.lines.compactMap(UUID.init(uuidString:))) }
        let store = try LocalStore.open(at: home.path + "/local.sqlite")
        let stored = try store.allEventIDs()
        let context = "seed \(seed), \(kills) kills (\(dashboardKills) of the dashboard)"
        #expect(stored.count == Set(stored).count, "duplicates stored; \(context)")
        #expect(Set(stored) == acknowledged, "stored and acknowledged differ; \(context)")
        #expect(stored.count == size.writers * size.eventsPerWriter, "\(context)")
        #expect(try store.integrityCheck() == ["ok"], "\(context)")
        #expect(dashboardKills > 0 || kills < 4, "the storm never hit the dashboard; \(context)")
    }
}
