import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// `screenmates monitor` on the two desktops most people run, for real and headless: GNOME Shell 43
/// with ScreenMates' extension, and KDE Plasma's KWin 5.27 with the script the monitor loads
/// itself. The focused window's blocks come out once each; `auto` follows the desktop the session
/// names and chooses again when it goes away.
@Suite(
    .enabled(
        if: DesktopSession.Kind.gnome.available && DesktopSession.Kind.kwin.available,
        Comment(rawValue: DesktopSession.Kind.gnome.missingNote + "; " + DesktopSession.Kind.kwin.missingNote)),
    .serialized)
struct GnomeKDEEndToEndTests: RealUsageTests {
    static let sources: [(DesktopSession.Kind, String)] = [(.gnome, "gnome"), (.kwin, "kde")]

    @Test(arguments: [0, 1])
    func theMonitorWritesTheFocusedWindowsBlocksAndStopsCleanly(_ index: Int) async throws {
        let (kind, source) = Self.sources[index]
        let home = Binary.Home()
        try await setUp(home, vice: ["alpha"], productive: ["beta"])
        let config = try await Binary.run(["config", "set", "block_minutes", "1", "--home", home.path])
        #expect(config.status == 0, "\(config.stderr)")
        try await DesktopSession.with(kind) { desktop in
            desktop.window(appID: "alpha", title: "Alpha window")
            let monitor = try await SpawnedProcess(
                Binary.path, ["monitor", "--home", home.path, "--source", source],
                environment: ProcessInfo.processInfo.environment.merging(desktop.environment) { _, new in new })
            defer { monitor.kill() }
            // A minute of the focused window with app id `alpha` is one block.
            let ids = try await waitForIDs(monitor, 1, timeout: .seconds(150))
            #expect(ids.count == 1, "\(monitor.standardError)")
            #expect(monitor.standardError.contains("following the focused window on"), "\(monitor.standardError)")
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
            let stored = try storedEvents(home)
            #expect(Set(stored.map(\.id)) == Set(monitor.lines.compactMap(UUID.init(uuidString:))))
            #expect(stored.allSatisfy { $0.appID == "custom-alpha" && $0.seconds == 60 }, "\(stored)")
            if kind == .kwin {
                let loaded = try await desktop.call(
                    "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.isScriptLoaded",
                    ["screenmates_\(monitor.pid)_1"])
                #expect(loaded.contains("false"), "the monitor unloads its script when it stops: \(loaded)")
            }
        }
    }

    @Test(arguments: [0, 1])
    func autoFollowsTheDesktopTheSessionNamesAndChoosesAgainWhenItEnds(_ index: Int) async throws {
        let (kind, source) = Self.sources[index]
        let home = Binary.Home()
        try await setUp(home, vice: ["alpha"], productive: ["beta"])
        try await DesktopSession.with(kind) { desktop in
            desktop.window(appID: "alpha", title: "Alpha window")
            let port = try ActivityWatchServer.freePort()
            // No tmux server in this directory, no ActivityWatch on this port: the desktop is the one.
            let noTmux = NSTemporaryDirectory() + "sm-no-tmux-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: noTmux, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: noTmux) }
            var environment = ProcessInfo.processInfo.environment.filter {
                !["DISPLAY", "TMUX", "SWAYSOCK", "HYPRLAND_INSTANCE_SIGNATURE"].contains($0.key)
            }
            environment.merge(desktop.environment) { _, new in new }
            environment["DISPLAY"] = nil
            environment["XDG_CURRENT_DESKTOP"] = kind == .gnome ? "GNOME" : "KDE"
            environment["SCREENMATES_ACTIVITYWATCH_URL"] = "http://127.0.0.1:\(port)"
            environment["TMUX_TMPDIR"] = noTmux
            let monitor = try await SpawnedProcess(
                Binary.path, ["monitor", "--home", home.path], environment: environment)
            defer { monitor.kill() }
            #expect(
                try await waitForError(monitor, "(--source \(source)); chosen again if it goes away"),
                "\(monitor.standardError)")
            // The choice is said before the follower starts: the desktop goes once it is followed.
            #expect(
                try await waitForError(monitor, "screenmates monitor: following the focused window on"),
                "\(monitor.standardError)")
            try await desktop.stop()
            #expect(
                try await waitForError(monitor, "Choosing again: following", timeout: .seconds(90)),
                "\(monitor.standardError)")
            #expect(monitor.standardError.contains("(--source terminal)"), "\(monitor.standardError)")
            #expect(!monitor.hasEnded, "auto goes on with the terminal")
            monitor.kill(SIGTERM)
            #expect(await monitor.wait(timeout: 30) == 143)
        }
    }
}
