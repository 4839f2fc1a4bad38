import Foundation
import Glibc

/// A program started by the benchmark whose standard output lines are read as they come, each
/// with the moment it arrived.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var received: [(at: ContinuousClock.Instant, line: String)] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ program: String, _ arguments: [String], environment: [String: String]) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, program, &actions, nil, argv, envp)
        close(fds[1])
        guard status == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL)
        }
        pid = child
        let fd = fds[0]
        Thread.detachNewThread { [self] in
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let now = ContinuousClock.now
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    lock.lock()
                    received.append((now, line))
                    lock.unlock()
                }
            }
            close(fd)
            done.signal()
        }
    }

    var lines: [(at: ContinuousClock.Instant, line: String)] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Waits for the program to end; returns its exit status.
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        done.wait()
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
