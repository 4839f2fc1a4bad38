import Foundation
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// What the tests of every real usage source share: a home set up with tracked apps, the
/// blocks it holds, and a monitor's output waited for.
protocol RealUsageTests {}

extension RealUsageTests {
    func setUp(_ home: Binary.Home, vice: [String], productive: [String]) async throws {
        let setup = try await Binary.run(
            ["setup", "--home", home.path, "--name", "ana", "--vice"] + vice + ["--productive"] + productive)
        #expect(setup.status == 0, "\(setup.stderr)")
    }

    func storedEvents(_ home: Binary.Home) throws -> [UsageEvent] {
        let store = try LocalStore.open(at: home.path + "/local.sqlite")
        return try store.events(in: Date(timeIntervalSince1970: 0)..<Date().addingTimeInterval(86400))
    }

    func waitForIDs(_ process: SpawnedProcess, _ count: Int, timeout: Duration = .seconds(60)) async throws -> Set<UUID>
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !process.hasEnded {
            let ids = Set(process.lines.compactMap(UUID.init(uuidString:)))
            if ids.count >= count { return ids }
            try await Task.sleep(for: .milliseconds(100))
        }
        return Set(process.lines.compactMap(UUID.init(uuidString:)))
    }

    func waitForError(_ process: SpawnedProcess, _ text: String, timeout: Duration = .seconds(60)) async throws -> Bool
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !process.hasEnded {
            if process.standardError.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return process.standardError.contains(text)
    }
}
