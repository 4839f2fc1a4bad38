import Foundation
import ScreenMatesSources
import ScreenMatesTestSupport
import Testing

/// `--source auto` without ActivityWatch: the session's desktops in the order it names them,
/// and the choice made again while the monitor runs.
@Suite struct AutoProbeTests {
    static func order(_ environment: [String: String]) -> [String] {
        SessionSources(environment: environment, idleTimeout: 180).desktops.map(\.name)
    }

    @Test func theDesktopTheSessionNamesComesFirstThenItsKind() {
        let all = ["SWAYSOCK": "/run/sway.sock", "HYPRLAND_INSTANCE_SIGNATURE": "abc", "DISPLAY": ":0"]
        // An X11 session (no WAYLAND_DISPLAY): X11 first, the Wayland ones after.
        #expect(Self.order(all) == ["x11", "sway", "hyprland"])
        // A Wayland session: its compositors; X11 there is Xwayland only, never followed.
        #expect(Self.order(all.merging(["WAYLAND_DISPLAY": "wayland-1"]) { $1 }) == ["sway", "hyprland"])
        #expect(
            Self.order(all.merging(["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "Hyprland"]) { $1 })
                == ["hyprland", "sway"])
        #expect(Self.order(all.merging(["XDG_CURRENT_DESKTOP": "sway"]) { $1 }) == ["sway", "x11", "hyprland"])
        #expect(Self.order(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "XFCE"]) == ["x11"])
        // Variables set but empty are not set.
        #expect(Self.order(["DISPLAY": "", "SWAYSOCK": ""]).isEmpty)
    }

    @Test func whatItCannotFollowIsSaid() {
        let none = SessionSources(environment: [:], idleTimeout: 180)
        #expect(none.reasons().joined().contains("DISPLAY is not set"))
        let gnome = SessionSources(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"], idleTimeout: 180)
        #expect(gnome.desktops.isEmpty)
        #expect(gnome.reasons().joined().contains("sees only Xwayland's windows"))
        let stale = SessionSources(environment: ["SWAYSOCK": "/nonexistent/sway.sock"], idleTimeout: 180)
        #expect(stale.firstAnswering() == nil)
        #expect(stale.reasons().joined().contains("Cannot connect to sway at /nonexistent/sway.sock"))
    }

    @Test(.enabled(if: XDesktop.available && TmuxServer.available, Comment(rawValue: XDesktop.missingNote)))
    func whenTheXServerEndsItFollowsTheTerminalAndWhenOneAnswersAgainTheDesktop() async throws {
        try await XDesktop.with { desktop in
            _ = try await desktop.window(class: "Alpha")
            try await TmuxServer.with { servers in
                let session = SessionSources(environment: ["DISPLAY": desktop.display], idleTimeout: 180)
                let tmux = servers[0].socket
                var probe = AutoProbe(session: session) {
                    TerminalProbe(tmux: TmuxServer.tmux, server: ["-L", tmux], followsTerminals: false)
                }
                probe.lookInterval = 0
                let start = Date(timeIntervalSince1970: 1_780_000_000)
                #expect(probe.sourceName == "x11")
                _ = try await probe.sample(wallClock: start)
                #expect(probe.takeNotices().isEmpty)

                try await desktop.endServer()
                _ = try await probe.sample(wallClock: start.addingTimeInterval(1))
                #expect(probe.sourceName == "terminal")
                let notices = probe.takeNotices()
                #expect(notices.count == 1)
                #expect(notices.first?.contains("The X server of display \(desktop.display) went away.") == true)
                #expect(notices.first?.contains("Choosing again: following") == true)
                #expect(notices.first?.hasSuffix("(--source terminal).") == true, "\(notices)")

                // Nothing answers on the display yet: it stays with the terminal, quietly.
                _ = try await probe.sample(wallClock: start.addingTimeInterval(2))
                #expect(probe.sourceName == "terminal" && probe.takeNotices().isEmpty)
                try await desktop.restartServer()
                _ = try await probe.sample(wallClock: start.addingTimeInterval(3))
                #expect(probe.sourceName == "x11")
                #expect(probe.takeNotices().first?.hasPrefix("x11 answers now") == true)
            }
        }
    }
}
