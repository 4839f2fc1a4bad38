import Foundation
import Subprocess
import Synchronization
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
        let programs = Task {
            await withDiscardingTaskGroup { programs in
                for await launch in stream {
                    programs.addTask { launch.ended(await run(launch)) }
                }
            }
        }
        do {
            let result = try await body(BackgroundPrograms(launches: continuation))
            await end(programs, continuation)
            return result
        } catch {
            await end(programs, continuation)
            throw error
        }
    }

    /// However the scope ends, its programs are cancelled (SIGTERM, then SIGKILL after 3 s) and
    /// awaited — for at most `endLimit`: a program's end that is never reported (it once kept a
    /// whole test run waiting, every process long gone) must not hold the test up for ever.
    private static func end(_ programs: Task<Void, Never>, _ launches: AsyncStream<Launch>.Continuation) async {
        launches.finish()
        programs.cancel()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let once = Once(done)
            Task {
                await programs.value
                once.resume()
            }
            Task {
                try? await Task.sleep(for: endLimit)
                once.resume()
            }
        }
    }

    /// How long the end of a scope waits for its programs to be reported ended.
    static let endLimit: Duration = .seconds(20)

    /// Resumes a continuation the first time it is asked to.
    private final class Once: Sendable {
        private let continuation: Mutex<CheckedContinuation<Void, Never>?>

        init(_ continuation: CheckedContinuation<Void, Never>) {
            self.continuation = Mutex(continuation)
        }

        func resume() {
            continuation.withLock { continuation in
                continuation?.resume()
                continuation = nil
            }
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
