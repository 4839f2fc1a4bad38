import Foundation
import Glibc

/// Runs a program and waits for it with `posix_spawn` and `waitpid`: small, and
/// deterministic when many tests spawn processes at once.
enum Command {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `path` with `arguments`. With `capture` false, output goes to /dev/null (for
    /// programs that leave a daemon holding their output open, like `tmux new-session -d`).
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil, capture: Bool = true)
        throws -> Result
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capture {
            guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let env = environment ?? ProcessInfo.processInfo.environment
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
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
        if capture {
            close(outPipe[1])
            close(errPipe[1])
        }
        guard spawned == 0 else {
            if capture {
                close(outPipe[0])
                close(errPipe[0])
            }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        var out = Data()
        var err = Data()
        if capture {
            // Read both pipes until they close, without letting either fill up.
            var fds = [
                pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0),
                pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0),
            ]
            var open = 2
            var buffer = [UInt8](repeating: 0, count: 65536)
            while open > 0 {
                _ = poll(&fds, nfds_t(fds.count), -1)
                for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                    let count = read(fds[index].fd, &buffer, buffer.count)
                    if count > 0 {
                        if index == 0 {
                            out.append(contentsOf: buffer[0..<count])
                        } else {
                            err.append(contentsOf: buffer[0..<count])
                        }
                    } else {
                        close(fds[index].fd)
                        fds[index].fd = -1
                        open -= 1
                    }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exitStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}
