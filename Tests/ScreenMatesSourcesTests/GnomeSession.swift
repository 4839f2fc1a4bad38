import Foundation
import ScreenMatesTestSupport
import Testing

/// A private, headless GNOME Shell (Debian bookworm's 43: `gnome-shell --headless`, no GPU) with
/// ScreenMates' extension installed and enabled, for as long as the scope `with` opens: started and
/// stopped by `.ci/gnome-session`, which CI runs too, in a directory of its own (its own session
/// bus, home and runtime directory).
struct GnomeSession: Sendable {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".ci/gnome-session").path
    static let window = URL(fileURLWithPath: script).deletingLastPathComponent().appendingPathComponent(
        "desktop-window"
    ).path
    static let tools = ["/usr/bin/gnome-shell", "/usr/bin/dbus-daemon", "/usr/bin/python3"]
    static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
    static let missingNote = "GNOME Shell is not installed (Debian: apt install gnome-shell python3-gi gir1.2-gtk-3.0)"

    let directory: String
    /// What a probe needs to find this GNOME Shell: its session bus (and its displays).
    let environment: [String: String]
    let programs: BackgroundPrograms

    static func with<T>(_ body: (GnomeSession) async throws -> T) async throws -> T {
        try await BackgroundPrograms.with { programs in
            let directory = NSTemporaryDirectory() + "sm-gnome-" + UUID().uuidString.prefix(8)
            let started = try await Command.run(script, ["start", directory], timeout: 90)
            try #require(started.status == 0, "GNOME Shell did not start: \(started.stderr)")
            var environment: [String: String] = [:]
            for line in started.stdout.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { environment[parts[0]] = parts[1] }
            }
            let session = GnomeSession(directory: directory, environment: environment, programs: programs)
            do {
                let result = try await body(session)
                _ = try await Command.run(script, ["stop", directory])
                return result
            } catch {
                _ = try await Command.run(script, ["stop", directory])
                throw error
            }
        }
    }

    /// A Wayland window whose app_id is `appID`, titled `title` (it takes the focus).
    func window(appID: String, title: String) {
        var environment = self.environment
        environment["GDK_BACKEND"] = "wayland"
        environment["PATH"] = "/usr/bin:/bin"
        programs.start(Self.window, [appID, title], environment: environment)
    }

    /// Presses keys as a person would (`alt+tab`, `shift`).
    func keys(_ names: String...) async throws {
        let result = try await Command.run(Self.script, ["keys", directory] + names)
        try #require(result.status == 0, "keys \(names): \(result.stderr)")
    }
}
