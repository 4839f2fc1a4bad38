import Foundation
import Glibc

/// Runs a program to its end with `posix_spawn` and `waitpid`, bounded by a time limit.
///
/// The blocking part (reading the pipes, waiting for the exit) runs on a thread of its own, so
/// that the test runner's few cooperative threads stay free while a child works. A child that
/// outlives its limit is killed (SIGKILL), and the call throws `Command.TimedOut` with what the
/// child printed so far.
enum Command {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A child that did not end within its limit. It was killed (SIGKILL); the description
    /// names it and shows what it had printed.
    struct TimedOut: Error, CustomStringConvertible {
        var command: [String]
        var limit: TimeInterval
        var stdout: String
        var stderr: String

        var description: String {
            """
            `\(command.joined(separator: " "))` did not end within \(limit) s and was killed (SIGKILL).
            --- its standard output so far:
            \(stdout)
            --- its standard error so far:
            \(stderr)
            """
        }
    }

    /// Generous: a child that needs longer than this is stuck, not slow.
    static let defaultTimeout: TimeInterval = 120

    /// Runs `path` with `arguments`. With `capture` false, output goes to /dev/null (for
    /// programs that leave a daemon holding their output open, like `tmux new-session -d`).
    /// Throws `TimedOut` when the child outlives `timeout` seconds, and `CancellationError`
    /// (after killing the child) when the test's task is cancelled.
    static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, capture: Bool = true,
        timeout: TimeInterval = defaultTimeout
    ) async throws -> Result {
        let child = try Child(path, arguments, environment: environment, capture: capture)
        let result = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                Thread.detachNewThread {
                    continuation.resume(with: Swift.Result { try child.finish(timeout: timeout) })
                }
            }
        } onCancel: {
            child.kill()
        }
        try Task.checkCancellation()
        return result
    }

    /// The same, blocking the calling thread: only for clean-up in a `deinit`, which cannot
    /// await, and only for commands that end at once.
    static func runBlocking(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, capture: Bool = true,
        timeout: TimeInterval = 10
    ) throws -> Result {
        try Child(path, arguments, environment: environment, capture: capture).finish(timeout: timeout)
    }

    /// One spawned child, its pipes, and whether it has been reaped (after which its pid may
    /// belong to another process and must not be signalled).
    private final class Child: @unchecked Sendable {
        let command: [String]
        let pid: pid_t
        let outFD: Int32
        let errFD: Int32
        private let lock = NSLock()
        private var reaped = false

        init(_ path: String, _ arguments: [String], environment: [String: String]?, capture: Bool) throws {
            command = [path] + arguments
            let spawned = try Spawn.start(
                path, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                output: capture ? .pipes : .discard)
            pid = spawned.pid
            outFD = spawned.outFD
            errFD = spawned.errFD
        }

        /// Kills the child, unless it was reaped already.
        func kill() {
            lock.lock()
            defer { lock.unlock() }
            guard !reaped else { return }
            Glibc.kill(pid, SIGKILL)
        }

        /// Reaps the child if it has ended; returns its raw wait status then.
        private func reap(blocking: Bool) -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            if reaped { return nil }
            var status: Int32 = 0
            while true {
                let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
                if result == pid {
                    reaped = true
                    return status
                }
                if result < 0 && errno == EINTR { continue }
                return nil
            }
        }

        /// Reads both pipes and waits for the exit, until `timeout` seconds have passed.
        func finish(timeout: TimeInterval) throws -> Result {
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(timeout)
            var out = Data()
            var err = Data()
            var rawStatus: Int32?
            var timedOut = false
            if outFD >= 0 {
                var fds = [
                    pollfd(fd: outFD, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: errFD, events: Int16(POLLIN), revents: 0),
                ]
                var open = 2
                var buffer = [UInt8](repeating: 0, count: 65536)
                // Once the child has ended, what it left in the pipes is read for a moment more:
                // a grandchild that keeps them open must not hold the call up.
                var drainUntil: ContinuousClock.Instant?
                while open > 0 {
                    if rawStatus == nil, let status = reap(blocking: false) {
                        rawStatus = status
                        drainUntil = clock.now + .seconds(2)
                    }
                    let now = clock.now
                    if let drainUntil, now >= drainUntil { break }
                    if now >= deadline {
                        timedOut = true
                        break
                    }
                    _ = poll(&fds, nfds_t(fds.count), 100)
                    for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                        let count = read(fds[index].fd, &buffer, buffer.count)
                        if count > 0 {
                            if index == 0 {
                                out.append(contentsOf: buffer[0..<count])
                            } else {
                                err.append(contentsOf: buffer[0..<count])
                            }
                        } else if count == 0 || errno != EINTR {
                            close(fds[index].fd)
                            fds[index].fd = -1
                            open -= 1
                        }
                    }
                }
                if timedOut {
                    kill()
                    // What was written before the kill is still in the pipes.
                    for index in fds.indices where fds[index].fd >= 0 {
                        _ = fcntl(fds[index].fd, F_SETFL, O_NONBLOCK)
                        while true {
                            let count = read(fds[index].fd, &buffer, buffer.count)
                            guard count > 0 else { break }
                            if index == 0 {
                                out.append(contentsOf: buffer[0..<count])
                            } else {
                                err.append(contentsOf: buffer[0..<count])
                            }
                        }
                    }
                }
                for pollFD in fds where pollFD.fd >= 0 { close(pollFD.fd) }
            }
            while rawStatus == nil && !timedOut {
                if let status = reap(blocking: false) {
                    rawStatus = status
                } else if clock.now >= deadline {
                    timedOut = true
                } else {
                    usleep(2000)
                }
            }
            if timedOut {
                kill()
                _ = reap(blocking: true)
                throw TimedOut(
                    command: command, limit: timeout, stdout: String(decoding: out, as: UTF8.self),
                    stderr: String(decoding: err, as: UTF8.self))
            }
            return Result(
                status: Spawn.exitStatus(rawStatus ?? 0), stdout: String(decoding: out, as: UTF8.self),
                stderr: String(decoding: err, as: UTF8.self))
        }
    }
}

/// Starting children the way a shell would: a clean signal mask and default handlers, standard
/// input from /dev/null. They stay in the test runner's process group, so that whatever stops the
/// runner as a group (`timeout` in CI) stops them too. Pipes are created close-on-exec, so that a
/// child started at the same moment by another test never inherits them (it would hold them open,
/// and the reader would wait for it).
enum Spawn {
    enum Output {
        case pipes
        case discard
    }

    struct Started {
        var pid: pid_t
        /// -1 with `.discard`.
        var outFD: Int32
        var errFD: Int32
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

    /// `pipe2(2)`, which Glibc's Swift module does not export.
    private static let pipe2: Pipe2 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else {
            fatalError("pipe2 is missing from the C library")
        }
        return unsafeBitCast(symbol, to: Pipe2.self)
    }()

    static func start(_ path: String, _ arguments: [String], environment: [String: String], output: Output) throws
        -> Started
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch output {
        case .pipes:
            guard pipe2(&outPipe, O_CLOEXEC) == 0 else { throw POSIXError(.EMFILE) }
            guard pipe2(&errPipe, O_CLOEXEC) == 0 else {
                close(outPipe[0])
                close(outPipe[1])
                throw POSIXError(.EMFILE)
            }
            // dup2 clears close-on-exec on the copies the child keeps as 1 and 2.
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        // The test runner's threads block signals; start children with a clean mask and
        // default handlers, as a shell would.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        if output == .pipes {
            close(outPipe[1])
            close(errPipe[1])
        }
        guard spawned == 0 else {
            if output == .pipes {
                close(outPipe[0])
                close(errPipe[0])
            }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        return Started(pid: pid, outFD: outPipe[0], errFD: errPipe[0])
    }

    /// A shell's `$?`: the exit status, or 128 + the signal that ended the process.
    static func exitStatus(_ raw: Int32) -> Int32 {
        (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
