import Foundation
import ScreenMatesMonitorRuntime
import ScreenMatesTestSupport
import Testing

/// `assets/screenmates-monitor.service`, the monitor as a systemd user service.
@Suite struct ServiceUnitTests {
    static let unit =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("assets/screenmates-monitor.service").path
    static let analyze = "/usr/bin/systemd-analyze"

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: analyze),
            "systemd-analyze is not installed (Debian: apt install systemd)"))
    func theUnitPassesSystemdAnalyzeVerify() async throws {
        let verified = try await Command.run(Self.analyze, ["verify", Self.unit])
        let said = verified.stderr
        #expect(verified.status == 0, "\(said)")
        // Warnings (an unknown key, a misspelt section) exit 0 too: none may name the unit.
        #expect(!said.contains("screenmates-monitor.service"), "\(said)")
    }

    @Test func aStopSignalIsACleanStopAndAFailureIsTriedAgain() throws {
        let text = try String(contentsOfFile: Self.unit, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        #expect(lines.contains("ExecStart=/usr/bin/env screenmates monitor --quiet"))
        #expect(lines.contains("SuccessExitStatus=143"), "the monitor exits with 128 + SIGTERM after committing")
        #expect(lines.contains("Restart=on-failure"))
        #expect(lines.contains("WantedBy=default.target"))
    }
}
