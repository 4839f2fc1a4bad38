import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// `screenmates monitor` following a real, headless sway 1.7 (run as `nobody` when the tests
/// run as root: sway refuses root), and `auto` choosing again when it goes away.
@Suite(
    .enabled(if: HeadlessSway.available, "sway or foot is not installed (Debian: apt install sway foot)"), .serialized)
struct DesktopSourceEndToEndTests: RealUsageTests {
    @Test func theMonitorWritesTheFocusedWindowsBlocksAndStopsCleanly() async throws {
        let home = Binary.Home()
        try await setUp(home, vice: ["alpha"], productive: ["beta"])
        let config = try await Binary.run(["config", "set", "block_minutes", "1", "--home", home.path])
        #expect(config.status == 0, "\(config.stderr)")
        let sway = try await HeadlessSway()
        try await sway.window(appID: "alpha")
        try await sway.swaymsg(["[app_id=alpha] focus"])
        let monitor = try await SpawnedProcess(
            Binary.path, ["monitor", "--home", home.path, "--source", "sway"],
            environment: ProcessInfo.processInfo.environment.merging(sway.environment) { _, new in new })
        defer { monitor.kill() }
        // A minute of the focused foot window with app id `alpha` is one block.
        let ids = try await waitForIDs(monitor, 1, timeout: .seconds(150))
        #expect(ids.count == 1, "\(monitor.standardError)")
        #expect(
            monitor.standardError.contains("following the focused window on sway 1.7 (idle from org_kde_kwin_idle)"),
            "\(monitor.standardError)")
        monitor.kill(SIGTERM)
        #expect(await monitor.wait(timeout: 30) == 143)
        let stored = try storedEvents(home)
        #expect(Set(stored.map(\.id)) == Set(monitor.lines.compactMap(UUID.init(uuidString:))))
        #expect(stored.allSatisfy { $0.appID == "custom-alpha" && $0.seconds == 60 }, "\(stored)")
    }

    @Test func autoFollowsTheDesktopTheSessionNamesAndChoosesAgainWhenItEnds() async throws {
        let home = Binary.Home()
        try await setUp(home, vice: ["alpha"], productive: ["beta"])
        let sway = try await HeadlessSway()
        try await sway.window(appID: "alpha")
        let port = try ActivityWatchServer.freePort()
        // No tmux server in this directory, no ActivityWatch on this port: sway is the one.
        let noTmux = NSTemporaryDirectory() + "sm-no-tmux-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: noTmux, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: noTmux) }
        var environment = ProcessInfo.processInfo.environment.filter { !["DISPLAY", "TMUX"].contains($0.key) }
        environment.merge(sway.environment) { _, new in new }
        environment["XDG_CURRENT_DESKTOP"] = "sway"
        environment["SCREENMATES_ACTIVITYWATCH_URL"] = "http://127.0.0.1:\(port)"
        environment["TMUX_TMPDIR"] = noTmux
        let monitor = try await SpawnedProcess(Binary.path, ["monitor", "--home", home.path], environment: environment)
        defer { monitor.kill() }
        #expect(
            try await waitForError(monitor, "(--source sway); chosen again if it goes away"), "\(monitor.standardError)"
        )
        // The choice is said before the follower starts: sway goes once it is followed.
        #expect(
            try await waitForError(monitor, "screenmates monitor: following the focused window on"),
            "\(monitor.standardError)")
        _ = try? await sway.swaymsg(["exit"])
        #expect(
            try await waitForError(monitor, "Choosing again: following"), "\(monitor.standardError)")
        #expect(monitor.standardError.contains("sway went away"), "\(monitor.standardError)")
        #expect(monitor.standardError.contains("(--source terminal)"), "\(monitor.standardError)")
        #expect(!monitor.hasEnded, "auto goes on with the terminal")
        monitor.kill(SIGTERM)
        #expect(await monitor.wait(timeout: 30) == 143)
    }
}

/// A headless sway with foot windows, for the monitor's end-to-end tests; killed when it goes
/// away (the compositor's windows end with it).
final class HeadlessSway {
    static let tools = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/foot", "/usr/bin/setpriv"]
    static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    let runtime = NSTemporaryDirectory() + "sm-e2e-sway-" + UUID().uuidString.prefix(8)
    private(set) var socket = ""
    private(set) var wayland = ""
    private var process: SpawnedProcess?

    var environment: [String: String] { ["SWAYSOCK": socket, "WAYLAND_DISPLAY": wayland, "XDG_RUNTIME_DIR": runtime] }

    init() async throws {
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let config = runtime + "/config"
        try "output HEADLESS-1 resolution 800x600\n".write(toFile: config, atomically: true, encoding: .utf8)
        // Started in its runtime directory: the programs it runs (foot) start where it is, and an
        // unprivileged sway could not enter a clone inside a private directory.
        var command = ["/usr/bin/env", "-C", runtime, "/usr/bin/sway", "-c", config]
        if getuid() == 0 {
            chmod(runtime, 0o700)
            chown(runtime, 65534, 65534)
            chown(config, 65534, 65534)
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        process = try await SpawnedProcess(
            command[0], Array(command.dropFirst()),
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": runtime, "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8",
                "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
            ])
        for _ in 0..<400 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
            if let socket = names.first(where: { $0.hasPrefix("sway-ipc.") }),
                let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") })
            {
                self.socket = runtime + "/" + socket
                self.wayland = wayland
                if (try? await swaymsg(["-t", "get_version"])) != nil { return }
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("sway did not start: \(process?.standardError ?? "")")
    }

    @discardableResult
    func swaymsg(_ arguments: [String]) async throws -> String {
        let result = try await Command.run("/usr/bin/swaymsg", ["-s", socket] + arguments, environment: [:])
        guard result.status == 0 else { throw HeadlessSwayError.failed(arguments, result.stdout + result.stderr) }
        return result.stdout
    }

    /// A foot window whose `app_id` is `name`, once sway shows it.
    func window(appID name: String) async throws {
        try await swaymsg(["exec", "foot --app-id \(name) sleep 1000"])
        for _ in 0..<400 {
            if try await swaymsg(["-t", "get_tree"]).contains("\"app_id\": \"\(name)\"") { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("foot --app-id \(name) did not open a window")
    }

    enum HeadlessSwayError: Error { case failed([String], String) }

    deinit {
        process?.kill(SIGTERM)
        try? FileManager.default.removeItem(atPath: runtime)
    }
}
