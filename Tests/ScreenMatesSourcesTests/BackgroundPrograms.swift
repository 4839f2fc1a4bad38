import Foundation
import Subprocess
import SystemPackage
import Testing

/// Programs a test keeps running beside it (an X server, a compositor, a window), each sent
/// SIGTERM and awaited when the scope `with` opens ends: none outlives the test.
struct BackgroundPrograms: Sendable {
    private struct Launch: Sendable {
        var path: String
        var arguments: [String]
        var environment: [String: String]
        var ended: @Sendable (TerminationStatus?) -> Void
    }

    private let launches: AsyncStream<Launch>.Continuation

    /// Runs `body` with a place to start programs; they are ended when it returns or throws.
    static func with<T>(_ body: (BackgroundPrograms) async throws -> T) async throws -> T {
        let (stream, continuation) = AsyncStream<Launch>.makeStream()
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask {
                await withDiscardingTaskGroup { programs in
                    for await launch in stream {
                        programs.addTask { launch.ended(await run(launch)) }
                    }
                }
            }
            // However `body` ends, the programs are cancelled (SIGTERM, then SIGKILL) and the
            // group awaits them.
            defer {
                continuation.finish()
                group.cancelAll()
            }
            return try await body(BackgroundPrograms(launches: continuation))
        }
    }

    /// Starts `path`; `ended` is told how it ended (`nil`: it could not start).
    func start(
        _ path: String, _ arguments: [String], environment: [String: String],
        ended: @escaping @Sendable (TerminationStatus?) -> Void = { _ in }
    ) {
        launches.yield(Launch(path: path, arguments: arguments, environment: environment, ended: ended))
    }

    private static func run(_ launch: Launch) async -> TerminationStatus? {
        var options = PlatformOptions()
        options.teardownSequence = [.send(signal: .terminate, allowedDurationToNextStep: .seconds(3))]
        return try? await Subprocess.run(
            .path(FilePath(launch.path)), arguments: Arguments(launch.arguments),
            environment: .custom(environment(launch.environment)), platformOptions: options, input: .none,
            output: .discarded, error: .discarded
        ).terminationStatus
    }

    static func environment(_ values: [String: String]) -> [Environment.Key: String] {
        Dictionary(
            uniqueKeysWithValues: values.compactMap { key, value in Environment.Key(rawValue: key).map { ($0, value) } }
        )
    }
}

/// A program run to its end: its exit status and what it printed. `reading: false` for one
/// that leaves a daemon behind holding its output (tmux's first command): nothing is read.
func runToEnd(_ path: String, _ arguments: [String], environment: [String: String], reading: Bool = true)
    async throws -> (status: TerminationStatus, output: String)
{
    let environment = Environment.custom(BackgroundPrograms.environment(environment))
    guard reading else {
        let result = try await Subprocess.run(
            .path(FilePath(path)), arguments: Arguments(arguments), environment: environment, output: .discarded)
        return (result.terminationStatus, "")
    }
    let result = try await Subprocess.run(
        .path(FilePath(path)), arguments: Arguments(arguments), environment: environment,
        output: .string(limit: 1 << 22))
    return (result.terminationStatus, result.standardOutput)
}
