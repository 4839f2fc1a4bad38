import Foundation

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

    /// A temporary home directory, removed at the end.
    final class Home {
        let path = NSTemporaryDirectory() + "screenmates-e2e-" + UUID().uuidString
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Runs the binary without a terminal and returns its status and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        let result = try Command.run(path, arguments, environment: env)
        return (result.status, result.stdout, result.stderr)
    }
}
