import Foundation
import Glibc
import ScreenMatesTestSupport
import Testing

/// A private, headless sway (Debian bookworm's 1.7: `WLR_BACKENDS=headless`, pixman, no input
/// devices) for as long as the scope `with` opens, with windows opened through its own `exec`.
///
/// sway refuses to run as root: a test run as root runs it as `nobody` (setpriv), in a runtime
/// directory of its own; root still reaches its sockets.
struct SwaySession: Sendable {
    static let tools = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/foot", "/usr/bin/setpriv"]
    static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
    static let missingNote = "sway, swaymsg or foot is not installed (Debian: apt install sway foot)"

    let runtime: String
    let socket: String
    let wayland: String
    let programs: BackgroundPrograms

    /// What a probe needs to find this sway: its IPC socket and Wayland display.
    var environment: [String: String] { ["SWAYSOCK": socket, "WAYLAND_DISPLAY": wayland, "XDG_RUNTIME_DIR": runtime] }

    static func with<T>(_ body: (SwaySession) async throws -> T) async throws -> T {
        try await BackgroundPrograms.with { programs in
            let runtime = NSTemporaryDirectory() + "sm-sway-" + UUID().uuidString.prefix(8)
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            let config = runtime + "/config"
            try "xwayland enable\noutput HEADLESS-1 resolution 800x600\n".write(
                toFile: config, atomically: true, encoding: .utf8)
            // Started in its runtime directory: the programs it runs (foot) start where it is, and an
            // unprivileged sway could not enter a clone inside a private directory.
            var command = ["/usr/bin/env", "-C", runtime, "/usr/bin/sway", "-c", config]
            if getuid() == 0 {
                chmod(runtime, 0o700)
                chown(runtime, 65534, 65534)
                chown(config, 65534, 65534)
                command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
            }
            programs.start(
                command[0], Array(command.dropFirst()),
                environment: [
                    "PATH": "/usr/bin:/bin", "HOME": runtime, "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8",
                    "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
                ])
            var found: (socket: String, wayland: String)?
            for _ in 0..<400 where found == nil {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
                if let socket = names.first(where: { $0.hasPrefix("sway-ipc.") }),
                    let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") })
                {
                    found = (runtime + "/" + socket, wayland)
                } else {
                    try await Task.sleep(for: .milliseconds(25))
                }
            }
            let (socket, wayland) = try #require(found, "sway did not start")
            let session = SwaySession(runtime: runtime, socket: socket, wayland: wayland, programs: programs)
            // Asked without `#require`: a sway still starting answers 1, which is no failure yet.
            for _ in 0..<400 where !(await session.answers()) {
                try await Task.sleep(for: .milliseconds(25))
            }
            return try await body(session)
        }
    }

    /// Whether this sway answers on its socket yet.
    func answers() async -> Bool {
        let result = try? await Command.run("/usr/bin/swaymsg", ["-s", socket, "-t", "get_version"], environment: [:])
        return result?.status == 0
    }

    /// Runs swaymsg against this sway and returns what it printed.
    @discardableResult
    func swaymsg(_ arguments: [String]) async throws -> String {
        let result = try await Command.run("/usr/bin/swaymsg", ["-s", socket] + arguments, environment: [:])
        try #require(result.status == 0, "swaymsg \(arguments) ended with \(result.status): \(result.stdout)")
        return result.stdout
    }

    /// Runs `command` inside sway (as its user, in its environment) and waits until the tree
    /// holds `expect` (a window's `"app_id": "alpha"` or `"class": "Gamma"`).
    func open(_ command: String, expect: String) async throws {
        try await swaymsg(["exec", command])
        for _ in 0..<400 {
            if try await swaymsg(["-t", "get_tree"]).contains(expect) { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("\(command) did not open a window")
    }

    /// A Wayland window whose `app_id` is `name` (foot, running `sleep`).
    func window(appID name: String) async throws {
        try await open("foot --app-id \(name) sleep 1000", expect: "\"app_id\": \"\(name)\"")
    }
}
