import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// `screenmates monitor --source terminal` as a service runs it: a real tmux server with a
/// client attached, one-minute blocks on the real clock, stopped with SIGTERM and started again.
@Suite(.serialized) struct TerminalSourceEndToEndTests: RealUsageTests {
    @Test func aStoppedMonitorHasCommittedItsBlocksAndARestartedOneCountsNothingTwice() async throws {
        let home = Binary.Home()
        try await setUp(home, vice: ["sleep"], productive: ["cat"])
        let config = try await Binary.run(["config", "set", "block_minutes", "1", "--home", home.path])
        #expect(config.status == 0, "\(config.stderr)")
        // The session's pane runs `sleep`; a client is attached to it from another tmux's pane.
        let session = try await Tmux(running: ["/bin/sleep", "100000"])
        let client = try await Tmux(running: ["/usr/bin/tmux", "-L", String(session.socket), "attach"])
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = "/tmp/tmux-\(getuid())/\(session.socket),0,0"

        var written: Set<UUID> = []
        for run in 1...2 {
            let monitor = try await SpawnedProcess(
                Binary.path, ["monitor", "--home", home.path, "--source", "terminal"], environment: environment)
            defer { monitor.kill() }
            // A minute of `sleep` in the foreground of the attached client's pane is one block.
            let ids = try await waitForIDs(monitor, typingInto: client, timeout: .seconds(150))
            #expect(ids.count == 1, "run \(run): \(monitor.standardError)")
            #expect(monitor.standardError.contains("following tmux's active pane"), "\(monitor.standardError)")
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
            let printed = Set(monitor.lines.compactMap(UUID.init(uuidString:)))
            #expect(printed.isDisjoint(with: written), "run \(run) wrote a block of the run before again")
            written.formUnion(printed)
            let stored = try storedEvents(home)
            #expect(Set(stored.map(\.id)) == written)
            #expect(stored.allSatisfy { $0.appID == "custom-sleep" && $0.seconds == 60 }, "\(stored)")
        }
        #expect(written.count >= 2)
    }

    /// Waits for the monitor's first block while the user types into the attached client every
    /// 20 s, as someone at work does: three minutes without input is idle, and the second run's
    /// first whole minute can end more than three minutes after the client attached.
    private func waitForIDs(_ monitor: SpawnedProcess, typingInto client: Tmux, timeout: Duration) async throws
        -> Set<UUID>
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !monitor.hasEnded {
            try await client.keys("Space")
            let ids = try await waitForIDs(monitor, 1, timeout: .seconds(20))
            if !ids.isEmpty { return ids }
        }
        return Set(monitor.lines.compactMap(UUID.init(uuidString:)))
    }
}
