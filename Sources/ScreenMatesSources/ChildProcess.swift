import Foundation
import Glibc

/// Runs a program to its end with `posix_spawn` and `waitpid` and returns its exit status and
/// standard output: the least a short query (`tmux list-clients`) can cost, with no thread or
/// run loop involved.
public enum ChildProcess {
    /// - Parameters:
    ///   - capture: read its standard output; without, it goes to `/dev/null` (a program that
    ///     leaves a daemon behind holding the pipe, as tmux's first command does, must not be read).
    ///   - environment: the whole environment; `nil` keeps this process's.
    public static func run(
        _ path: String, _ arguments: [String], capture: Bool = true, environment: [String: String]? = nil
    ) -> (status: Int32, output: Data)? {
        var pipe: [Int32] = [-1, -1]
        if capture, Glibc.pipe(&pipe) != 0 { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capture {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
            posix_spawn_file_actions_addclose(&actions, pipe[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var attributes = Self.attributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        let spawned =
            envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        if capture { close(pipe[1]) }
        guard spawned == 0 else {
            if capture { close(pipe[0]) }
            return nil
        }
        var output = Data()
        if capture {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(pipe[0], &buffer, buffer.count)
                if count > 0 {
                    output.append(contentsOf: buffer[0..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(pipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED / WEXITSTATUS, which do not import.
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output)
    }

    /// A child starts with no signal blocked and every signal at its default: the calling
    /// thread's mask (a runtime's worker threads block most) would otherwise be inherited, and a
    /// tmux server started so never ends.
    private static func attributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }

    /// Starts a program that runs on (a server, a window) with its output to `/dev/null`; the
    /// caller ends it and reaps it (`stop`).
    public static func start(_ path: String, _ arguments: [String], environment: [String: String]) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var attributes = Self.attributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var pid: pid_t = 0
        return posix_spawn(&pid, path, &actions, &attributes, argv, envp) == 0 ? pid : nil
    }

    /// Whether a program `start` started still runs (not yet ended, or ended and not reaped).
    public static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Ends a program `start` started and reaps it.
    public static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}
