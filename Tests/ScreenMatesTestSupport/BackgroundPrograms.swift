import Foundation
import Subprocess
import SystemPackage

/// Programs a test keeps running beside it (an X server, a compositor, a window), each sent
/// SIGTERM and awaited when the scope `with` opens ends: none outlives the test.
public struct BackgroundPrograms: Sendable {
    private struct Launch: Sendable {
        var path: String
        var arguments: [String]
        var environment: [String: String]
        var ended: @Sendable (Int32?) -> Void
    }

    private let launches: AsyncStream<Launch>.Continuation

    /// Runs `body` with a place to start programs; they are ended when it returns or throws.
    public static func with<T>(_ body: (BackgroundPrograms) async throws -> T) async throws -> T {
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

    /// Starts `path`; `ended` is told how it ended (its exit status, or 128 + the signal that
    /// ended it; `nil`: it could not start).
    public func start(
        _ path: String, _ arguments: [String], environment: [String: String],
        ended: @escaping @Sendable (Int32?) -> Void = { _ in }
    ) {
        launches.yield(Launch(path: path, arguments: arguments, environment: environment, ended: ended))
    }

    private static func run(_ launch: Launch) async -> Int32? {
        var options = PlatformOptions()
        options.teardownSequence = [.send(signal: .terminate, allowedDurationToNextStep: .seconds(3))]
        return
            (try? await Subprocess.run(
                .path(FilePath(launch.path)), arguments: Arguments(launch.arguments),
                environment: .custom(environment(launch.environment)), platformOptions: options, input: .none,
                output: .discarded, error: .discarded
            ).terminationStatus).map(SpawnedProcess.exitStatus)
    }

    public static func environment(_ values: [String: String]) -> [Environment.Key: String] {
        Dictionary(
            uniqueKeysWithValues: values.compactMap { key, value in Environment.Key(rawValue: key).map { ($0, value) } }
        )
    }
}
