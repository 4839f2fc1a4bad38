import Foundation
import Glibc
import ScreenMatesTestSupport

/// The `screenmates` executable built next to the test bundle, and a private home for it.
struct Binary {
    static var path: String {
        let testExecutable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: testExecutable).deletingLastPathComponent()
        // The test runner may live inside a bundle directory; the products sit beside it.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("screenmates").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return testExecutable
    }

    /// The binary where any user may run it: `path` itself when every directory above it lets
    /// others through, else a copy (with the assets beside it, where the binary looks for them)
    /// in a temporary directory that does — for tests that run it as an unprivileged user from
    /// a clone inside a private directory (a root's home).
    static let pathForEveryone: String = {
        let original = path
        var directory = (original as NSString).deletingLastPathComponent
        var open = true
        while directory != "/" && !directory.isEmpty {
            var info = stat()
            if stat(directory, &info) != 0 || info.st_mode & 0o001 == 0 { open = false }
            directory = (directory as NSString).deletingLastPathComponent
        }
        if open { return original }
        // One copy per clone, made again by each test run (never piling up in the temporary folder).
        let clone = original.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        let root = NSTemporaryDirectory() + "screenmates-for-everyone-" + String(clone, radix: 36)
        try? FileManager.default.removeItem(atPath: root)
        let assets = root + "/share/screenmates/assets"
        let copy = root + "/bin/screenmates"
        do {
            try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                atPath: root + "/share/screenmates", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: original, toPath: copy)
            try FileManager.default.copyItem(atPath: ShippedFilesTests.assets.path, toPath: assets)
            for made in [root, root + "/bin", root + "/share", root + "/share/screenmates"] { chmod(made, 0o755) }
        } catch {
            return original
        }
        return copy
    }()

    /// A temporary home directory, removed at the end.
    final class Home: Sendable {
        let path = NSTemporaryDirectory() + "screenmates-e2e-" + UUID().uuidString
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// A group-store file several homes share, removed with its companions when let go.
    final class SharedStore: Sendable {
        let path = NSTemporaryDirectory() + "screenmates-e2e-" + UUID().uuidString + "-group-store.sqlite"
        deinit {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }

    /// Runs the binary without a terminal and returns its status and output. Its environment
    /// is the test runner's, with `environment` added and the variables in `removing` taken
    /// out. A run longer than `timeout` seconds is killed and throws `Command.TimedOut` with
    /// what it printed.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], removing: Set<String> = [],
        timeout: TimeInterval = Command.defaultTimeout
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        var env = ProcessInfo.processInfo.environment.filter { !removing.contains($0.key) }
        env.merge(environment) { _, new in new }
        let result = try await Command.run(path, arguments, environment: env, timeout: timeout)
        return (result.status, result.stdout, result.stderr)
    }

    /// `run`, but alone in a process namespace of its own with a fresh `/proc` (util-linux's
    /// `unshare`; as root, or as root of a user namespace of its own): the terminals and
    /// windows other tests open at the same time are not there for it to see.
    static func runAlone(
        _ arguments: [String], environment: [String: String] = [:], removing: Set<String> = [],
        timeout: TimeInterval = Command.defaultTimeout
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        var env = ProcessInfo.processInfo.environment.filter { !removing.contains($0.key) }
        env.merge(environment) { _, new in new }
        let namespace =
            ["--pid", "--fork", "--mount-proc", "--kill-child"] + (getuid() == 0 ? [] : ["--map-root-user"])
        let result = try await Command.run(
            "/usr/bin/unshare", namespace + [path] + arguments, environment: env, timeout: timeout)
        return (result.status, result.stdout, result.stderr)
    }
}
