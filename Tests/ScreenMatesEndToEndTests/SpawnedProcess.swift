import Foundation
import Glibc

/// A program running beside the test, whose standard output and error are collected line by
/// line as they arrive, each line with the moment it was read.
final class SpawnedProcess: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var outLines: [(at: ContinuousClock.Instant, text: String)] = []
    private var errText = ""
    private let readersDone = DispatchGroup()
    private var finished: Int32?

    /// Starts `path` with `arguments`. With `shell`, runs `/bin/bash -c shell` instead (for
    /// `ulimit` and `trap`), with the program's path and arguments appended as `$0 $@`.
    init(_ path: String, _ arguments: [String], environment: [String: String]? = nil, shell: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
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
        let program = shell == nil ? path : "/bin/bash"
        let argv =
            (shell.map { ["/bin/bash", "-c", $0, path] + arguments } ?? [path] + arguments).map { strdup($0) }
            + [nil]
        let env = environment ?? ProcessInfo.processInfo.environment
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, program, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL)
        }
        pid = child
        let outFD = outPipe[0]
        let errFD = errPipe[0]
        readersDone.enter()
        readersDone.enter()
        Thread.detachNewThread { [self] in
            Self.readLines(outFD) { line in locked { outLines.append((ContinuousClock.now, line)) } }
            readersDone.leave()
        }
        Thread.detachNewThread { [self] in
            Self.readLines(errFD) { line in locked { errText += line + "\n" } }
            readersDone.leave()
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private static func readLines(_ fd: Int32, _ handle: (String) -> Void) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 10) {
                handle(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { handle(String(decoding: pending, as: UTF8.self)) }
        close(fd)
    }

    var lines: [String] { locked { outLines.map(\.text) } }
    var timedLines: [(at: ContinuousClock.Instant, text: String)] { locked { outLines } }
    var standardError: String { locked { errText } }

    func kill(_ signal: Int32 = SIGKILL) { Glibc.kill(pid, signal) }

    /// Waits for the process to end and returns its exit status (128 + signal when killed).
    @discardableResult
    func wait(timeout: TimeInterval = 60) -> Int32? {
        if let done = locked({ finished }) { return done }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return nil }
            if Date() > deadline { return nil }
            usleep(5000)
        }
        return ended(with: status)
    }

    /// Whether the process has ended (reaping it if so).
    var hasEnded: Bool {
        if locked({ finished }) != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        ended(with: status)
        return true
    }

    var exitStatus: Int32? { locked { finished } }

    /// Records the exit, once the readers have drained what the process wrote before it ended.
    @discardableResult
    private func ended(with status: Int32) -> Int32 {
        readersDone.wait()
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        locked { finished = exit }
        return exit
    }
}
