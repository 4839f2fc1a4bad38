import Foundation
import Glibc
import ScreenMatesTestSupport
import Testing

/// The end-to-end helpers themselves: a child that hangs fails its test with what it printed,
/// instead of holding the run; a tmux server does not outlive its test.
@Suite(.timeLimit(.minutes(2))) struct HarnessTests {
    @Test func aCommandThatOutlivesItsTimeLimitIsKilledAndShowsWhatItPrinted() async throws {
        let script = "echo started; echo trouble >&2; exec sleep 600"
        do {
            let result = try await Command.run("/bin/sh", ["-c", script], timeout: 1)
            Issue.record("a command that sleeps for 600 s returned: \(result)")
        } catch let timedOut as Command.TimedOut {
            #expect(timedOut.stdout == "started\n")
            #expect(timedOut.stderr == "trouble\n")
            #expect(timedOut.description.contains("/bin/sh -c \(script)"), "\(timedOut)")
            #expect(timedOut.description.contains("killed"), "\(timedOut)")
        }
    }

    @Test func aSpawnedProcessThatOutlivesItsWaitIsKilledAndReported() async throws {
        let process = try await SpawnedProcess("/bin/sh", ["-c", "echo started; exec sleep 600"])
        await withKnownIssue("the wait's time limit records an issue") {
            let status = await process.wait(timeout: 1)
            #expect(status == 128 + SIGKILL)
        } matching: { issue in
            String(describing: issue).contains("did not end within 1.0 s")
                && String(describing: issue).contains("started")
        }
        #expect(process.hasEnded)
        #expect(process.lines == ["started"])
    }

    /// A signal reaches the process (its handler runs: it was started with none blocked), and
    /// its end is seen though a grandchild still holds its output open.
    @Test func aSignalReachesTheProcessAndAGrandchildHoldingItsOutputDoesNotHoldUpItsEnd() async throws {
        let script = "trap 'echo got TERM; exit 3' TERM; /bin/sleep 600 & echo \"grandchild $!\"; wait"
        let process = try await SpawnedProcess("/bin/sh", ["-c", script])
        var grandchild: pid_t?
        while grandchild == nil && !process.hasEnded {
            grandchild = process.lines.first { $0.hasPrefix("grandchild ") }.flatMap { pid_t($0.dropFirst(11)) }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.kill(SIGTERM)
        #expect(await process.wait() == 3, "\(process.lines) \(process.standardError)")
        #expect(process.lines.last == "got TERM")
        if let grandchild { kill(grandchild, SIGKILL) }
    }

    @Test func aTmuxServerEndsWithItsTest() async throws {
        var tmux: Tmux? = try await Tmux(running: ["/bin/sleep", "600"])
        let socket = try #require(tmux?.socket)
        let panePID = try #require(try await tmux?.panePID())
        #expect(kill(panePID, 0) == 0, "the pane's program runs")
        tmux = nil
        let listed = try await Command.run(
            "/usr/bin/tmux", ["-L", String(socket), "-f", "/dev/null", "list-sessions"], environment: Tmux.environment)
        #expect(listed.status != 0, "the server still answers: \(listed.stdout)")
        // The pane's program got SIGHUP from the closed terminal.
        let deadline = ContinuousClock.now + .seconds(20)
        while kill(panePID, 0) == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(kill(panePID, 0) != 0, "the pane's program outlived the server")
    }
}

/// The X test desktop keeps its window manager: an openbox that went away (as one that could not
/// connect at start-up did) is started again when a new window is not managed, and focus works.
@Suite(.enabled(if: XDesktop.available, Comment(rawValue: XDesktop.missingNote)), .timeLimit(.minutes(2)))
struct XDesktopHarnessTests {
    /// The openbox of `display`: the process named openbox whose environment names that display.
    static func windowManager(on display: String) -> pid_t? {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.compactMap { pid_t($0) }.first { pid in
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            let environment = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
            return name == "openbox\n"
                && environment.split(separator: 0).contains {
                    String(decoding: $0, as: UTF8.self) == "DISPLAY=\(display)"
                }
        }
    }

    @Test func aWindowManagerThatWentAwayIsStartedAgain() async throws {
        try await XDesktop.with { desktop in
            let openbox = try #require(Self.windowManager(on: desktop.display), "openbox runs on \(desktop.display)")
            kill(openbox, SIGKILL)
            for _ in 0..<200 where kill(openbox, 0) == 0 { try await Task.sleep(for: .milliseconds(25)) }
            let window = try await desktop.window(class: "alpha")
            #expect(Self.windowManager(on: desktop.display) != nil, "openbox runs again")
            try await desktop.focus(window, class: "alpha")
            #expect(try await desktop.activeWindow() == window)
        }
    }
}
