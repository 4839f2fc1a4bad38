import Foundation
import ScreenMatesTestSupport
import Testing

/// The paths a newcomer takes from the README and the manual pages, as they type them: a group
/// store named once at setup, and a join that cannot reach its store said as a failure.
@Suite struct NewcomerPathEndToEndTests {
    final class Machine {
        let root = NSTemporaryDirectory() + "screenmates-newcomer-" + UUID().uuidString
        var store: String { root + "/group.sqlite" }

        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// `screenmates ARGUMENTS --home ROOT/name`, with no group store in the environment.
        func run(_ name: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String)
        {
            try await Binary.run(arguments + ["--home", root + "/" + name], removing: ["SCREENMATES_GROUP_STORE"])
        }
    }

    /// `setup --group-store` is remembered: the group commands after it go to that store without
    /// naming it again (they used to go to the home's default file and fail), and `config show`
    /// names it.
    @Test func aStoreNamedAtSetupIsWhereTheGroupCommandsGo() async throws {
        let machine = try Machine()
        for name in ["ana", "bo"] {
            let setup = try await machine.run(
                name, ["setup", "--name", name, "--vice", "tiktok", "--group-store", machine.store])
            #expect(setup.status == 0, "\(setup.stderr)")
            #expect(setup.stdout.contains("Group store: \(machine.store)"), "\(setup.stdout)")
        }
        let created = try await machine.run("ana", ["group", "create"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(FileManager.default.fileExists(atPath: machine.store), "the group is in the store setup named")
        let code = try #require(created.stdout.split(separator: " ").last).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let joined = try await machine.run("bo", ["group", "join", code])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("2 members"), "\(joined.stdout)")
        let config = try await machine.run("bo", ["config", "show"])
        #expect(config.stdout.contains("# group store: \(machine.store)"), "\(config.stdout)")
    }

    /// A join whose store cannot be reached failed, and says so: nothing is kept to be sent later,
    /// unlike a report's updates.
    @Test func aJoinThatCannotReachItsStoreSaysItFailed() async throws {
        let machine = try Machine()
        let setup = try await machine.run("ana", ["setup", "--name", "ana"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let joined = try await machine.run("ana", ["group", "join", "K7Q2XM"])
        #expect(joined.status == 1)
        #expect(joined.stderr.contains("Could not join group K7Q2XM"), "\(joined.stderr)")
        #expect(joined.stderr.contains("cannot be reached"), "\(joined.stderr)")
        #expect(joined.stderr.contains("Nothing was changed"), "\(joined.stderr)")
        #expect(!joined.stderr.contains("Working offline"), "\(joined.stderr)")
    }
}
