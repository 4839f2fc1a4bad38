import Foundation
import Glibc
import ScreenMatesTestSupport
import Testing

/// `screenmates demo --members N`: the mates' monitors and reporters run until Ctrl-C, and none
/// outlives the demo (they are tasks of one group the demo awaits).
@Suite struct GroupDemoEndToEndTests {
    /// The processes whose command line names `text` (the mates' monitors name their homes).
    static func processes(naming text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(text)
        }
    }

    @Test func theMatesRunUntilCtrlCAndNoneOutlivesTheDemo() async throws {
        let home = Binary.Home()
        let demo = try await SpawnedProcess(
            Binary.path,
            ["demo", "--home", home.path, "--members", "3", "--speed", "60", "--start-at", "2026-11-21T18:00"])
        defer { demo.kill() }
        let mates = home.path + "/mates/"
        for _ in 0..<600 where !demo.hasEnded && Self.processes(naming: mates).count < 3 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(Self.processes(naming: mates).count == 3, "three monitors run: \(demo.standardError)")
        // The monitors write the mates' usage (a minute of app time a real second).
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: mates + "cy/local.sqlite") {
            try await Task.sleep(for: .milliseconds(50))
        }
        demo.kill(SIGINT)
        #expect(await demo.wait(timeout: 60) == 130, "\(demo.standardError)")
        // Standard output goes to a pipe here, so it arrives when the demo ends.
        #expect(demo.lines.contains { $0.contains("you and 3 simulated members (ana, bo, cy)") }, "\(demo.lines)")
        #expect(demo.lines.contains("Stopped 3 simulated members."), "\(demo.lines)")
        #expect(Self.processes(naming: mates).isEmpty, "a mate's monitor outlived the demo")
    }

    /// The mates never take a name the group has: a user called ana (the first mate's name)
    /// gets bo and cy, and a real member called bo in the group pushes the mates on to cy and dee.
    @Test func theMatesPassOverNamesTheGroupHas() async throws {
        let home = Binary.Home()
        let store = home.path + "-group-store.sqlite"
        defer { try? FileManager.default.removeItem(atPath: store) }
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let created = try await Binary.run(["group", "create", "--home", home.path, "--group-store", store])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(
            created.stdout.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        )
        let bo = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", bo.path, "--name", "Bo"]).status == 0)
        let joined = try await Binary.run(["group", "join", code, "--home", bo.path, "--group-store", store])
        #expect(joined.status == 0, "\(joined.stderr)")

        let demo = try await SpawnedProcess(
            Binary.path,
            ["demo", "--home", home.path, "--group-store", store, "--members", "2", "--speed", "60"])
        defer { demo.kill() }
        for _ in 0..<600 where !demo.hasEnded && Self.processes(naming: home.path + "/mates/").count < 2 {
            try await Task.sleep(for: .milliseconds(50))
        }
        demo.kill(SIGINT)
        #expect(await demo.wait(timeout: 60) == 130, "\(demo.standardError)")
        #expect(demo.lines.contains { $0.contains("you and 2 simulated members (cy, dee)") }, "\(demo.lines)")
        let members = try await Binary.run(["group", "show", "--home", bo.path, "--group-store", store])
        #expect(members.stdout.contains("Bo") && !members.stdout.contains(" bo "), "\(members.stdout)")
    }
}
