import Foundation
import Glibc
import ScreenMatesTestSupport
import Testing

/// A private tmux server with one pane, driven the way a person would: keys in, screen text
/// out. Each session has its own socket, so tests run side by side; the server is killed when
/// the value goes away, whether the test passed or not.
///
/// The pane runs a shell (`init(width:height:environment:)`, commands typed into it), one
/// program as the pane's own process (`init(running:)`), or one program under a supervisor
/// that stays after it (`init(supervising:)`). The last two have no shell and no job control
/// of a shell: nothing restores the terminal after the program, so what the terminal shows is
/// what the program left.
final class Tmux {
    let socket = "sm-e2e-" + UUID().uuidString.prefix(8)
    let width: Int
    let height: Int
    /// Where the supervisor of `init(supervising:)` writes the program's exit status.
    let statusFile: String
    /// The server's process, which `deinit` ends.
    private var serverPID: pid_t = 0

    /// A pane running bash, without its start-up files.
    convenience init(width: Int = 120, height: Int = 40, environment: [String: String] = [:]) async throws {
        try await self.init(
            width: width, height: height, environment: environment, unsetting: [],
            command: ["bash", "--norc", "--noprofile"])
    }

    /// A pane whose process is `command` itself (through `env`, which execs it, so the pane's
    /// pid is the program's), with `environment` added to the pane's and `unsetting` removed
    /// from it (`TERM`, say). When the program ends, the pane stays (`remain-on-exit`) with its
    /// last screen and exit status (`paneState()`); tmux then marks the pane dead, which also
    /// hides its cursor.
    convenience init(
        width: Int = 120, height: Int = 40, environment: [String: String] = [:], unsetting: [String] = [],
        running command: [String]
    ) async throws {
        try await self.init(
            width: width, height: height, environment: environment, unsetting: unsetting, command: command)
    }

    /// A pane whose process is a small supervisor (perl, no shell) that starts `command`, waits
    /// for it, writes its exit status (`programExitStatus`) and then stays without touching the
    /// terminal: the alternate screen and the cursor are then as the program left them, in a
    /// live pane (tmux hides the cursor of a dead one).
    ///
    /// With `jobControl`, the program gets a process group of its own in the terminal's
    /// foreground, as a shell with job control gives a job, so Ctrl-Z stops it (the pane's own
    /// process cannot be stopped that way: its process group has no parent in the session, and
    /// the kernel discards a terminal stop for it). Without, it stays in the supervisor's group.
    convenience init(
        width: Int = 120, height: Int = 40, environment: [String: String] = [:], supervising command: [String],
        jobControl: Bool = false
    ) async throws {
        let statusFile = NSTemporaryDirectory() + "sm-e2e-status-" + UUID().uuidString
        try await self.init(
            width: width, height: height, environment: environment, unsetting: [],
            command: ["/usr/bin/perl", "-MPOSIX", "-e", Self.supervisor, statusFile, jobControl ? "1" : "0"]
                + command,
            statusFile: statusFile)
    }

    /// The supervisor: `perl -MPOSIX -e SCRIPT STATUS-FILE JOB-CONTROL(0|1) PROGRAM ARGUMENTS…`.
    /// It writes nothing to the terminal (unless it cannot start the program).
    static let supervisor = """
        my ($file, $jobs) = splice(@ARGV, 0, 2);
        $SIG{TTOU} = "IGNORE";
        my $pid = fork() // die "fork: $!";
        if ($pid == 0) {
            if ($jobs) { setpgid(0, 0); tcsetpgrp(0, getpgrp()); }
            $SIG{TTOU} = "DEFAULT";
            exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!";
        }
        if ($jobs) { setpgid($pid, $pid); tcsetpgrp(0, $pid); }
        my $exit = 255;
        while (waitpid($pid, WUNTRACED) == $pid) {
            my $status = ${^CHILD_ERROR_NATIVE};
            next if WIFSTOPPED($status);
            $exit = WIFEXITED($status) ? WEXITSTATUS($status) : 128 + WTERMSIG($status);
            last;
        }
        open(my $out, ">", "$file.new") or die "$file: $!";
        print $out "$exit\n";
        close($out);
        rename("$file.new", $file);
        pause() while 1
        """

    private init(
        width: Int, height: Int, environment: [String: String], unsetting: [String], command: [String],
        statusFile: String = ""
    ) async throws {
        self.width = width
        self.height = height
        self.statusFile = statusFile
        var env = ["LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no"]
        env.merge(environment) { _, new in new }
        let exports = env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let unsets = unsetting.flatMap { ["-u", $0] }
        // tmux reads an argument ending in ";" as the end of a command; "\\;" keeps the ";".
        let command = command.map { $0.hasSuffix(";") ? $0.dropLast() + "\\;" : $0 }
        // One command list: the options hold before the pane's program starts (no status line
        // appearing under a program that has drawn; a program that ends at once still leaves
        // its pane). The server outlives this call and would hold an output pipe open: read
        // nothing from it.
        try await run(
            [
                "set-option", "-g", "status", "off", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "/usr/bin/env",
            ] + unsets + exports + command,
            capture: false)
        serverPID =
            pid_t(try await run(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
            ?? 0
    }

    /// Ends the server as `tmux kill-server` would (its panes' programs get SIGHUP), without a
    /// program to wait for: a `deinit` cannot await one, and blocking one of the test tasks'
    /// few threads until another task has run it could wait forever.
    deinit {
        if !statusFile.isEmpty { unlink(statusFile) }
        if serverPID > 0 {
            kill(serverPID, SIGTERM)
            // Gone before the test goes on (a server that does not end within 10 s is left).
            for _ in 0..<10_000 where Self.isRunning(serverPID) { usleep(1000) }
        }
        unlink("/tmp/tmux-\(getuid())/\(socket)")
    }

    /// Whether `pid` is a process that has not ended (a zombie has).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    /// Types a command line and presses Enter.
    func type(_ line: String) async throws {
        try await run(["send-keys", "-l", line])
        try await run(["send-keys", "Enter"])
    }

    /// Sends tmux key names (`q`, `Escape`, `C-c`, `Down`).
    func keys(_ names: String...) async throws {
        try await run(["send-keys"] + names)
    }

    /// Keeps everything the pane's program writes from now on in `path` (`pipe-pane`): what was
    /// on screen only between two captures is there too.
    func record(to path: String) async throws {
        try await run(["pipe-pane", "-o", "cat >> '\(path)'"])
    }

    /// What `record(to:)` kept, as text: escape sequences (colours, cursor moves) taken out.
    static func recorded(_ path: String) -> String {
        let bytes = FileManager.default.contents(atPath: path) ?? Data()
        return String(decoding: bytes, as: UTF8.self).replacing(
            /\u{1B}(\[[0-9;?]*[ -\/]*[@-~]|[()][0-9A-Za-z]|[=>78])/, with: "")
    }

    func resize(width: Int, height: Int) async throws {
        try await run(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pane's text now (with `-e`, its colour and attribute escapes). With `everything`,
    /// from the start of its history, wrapped lines joined: all a program printed.
    func screen(escapes: Bool = false, everything: Bool = false) async throws -> String {
        try await run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + (everything ? ["-J", "-S", "-"] : []))
    }

    /// Waits until the screen satisfies `condition`, looking every 50 ms without holding a
    /// thread; returns the last screen either way.
    @discardableResult
    func waitFor(timeout: TimeInterval = 20, _ condition: (String) -> Bool) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var last = try await screen()
        while !condition(last) && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            last = try await screen()
        }
        return last
    }

    /// Waits until `text` is on the screen; a timeout is a test failure (showing the screen).
    @discardableResult
    func waitFor(
        _ text: String, timeout: TimeInterval = 20, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let screen = try await waitFor(timeout: timeout) { $0.contains(text) }
        if !screen.contains(text) {
            Issue.record("\"\(text)\" did not appear within \(timeout) s:\n\(screen)", sourceLocation: sourceLocation)
        }
        return screen
    }

    /// The pane's process: the program itself for `init(running:)`, the shell otherwise.
    func panePID() async throws -> pid_t {
        let text = try await run(["display-message", "-p", "#{pane_pid}"])
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), "pane pid: \(text)")
    }

    /// The process id of a program the pane's process started (its first child of that name).
    func childPID(named name: String) async throws -> pid_t? {
        let panePID = try await panePID()
        let children = (try? String(contentsOfFile: "/proc/\(panePID)/task/\(panePID)/children", encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ Int32($0) }) {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if comm.hasPrefix(name.prefix(15)) { return pid }
        }
        return nil
    }

    /// The program of `init(supervising:)`: the supervisor's child.
    func programPID() async throws -> pid_t {
        let panePID = try await panePID()
        let children = (try? String(contentsOfFile: "/proc/\(panePID)/task/\(panePID)/children", encoding: .utf8)) ?? ""
        return try #require(
            children.split(separator: " ").compactMap { pid_t($0) }.first, "no program under the supervisor")
    }

    /// The exit status of the program of `init(supervising:)` once it has ended (128 + the
    /// signal when one ended it).
    var programExitStatus: Int32? {
        (try? String(contentsOfFile: statusFile, encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Waits until the program of `init(supervising:)` has ended; its exit status, or nil if
    /// it is still running after `timeout` seconds.
    func waitForProgramEnd(timeout: TimeInterval = 20) async throws -> Int32? {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while programExitStatus == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return programExitStatus
    }

    /// What tmux knows of the pane's terminal and process.
    struct PaneState: CustomStringConvertible {
        /// The alternate screen (where full-screen programs draw) is on.
        var alternateOn: Bool
        var cursorVisible: Bool
        var dead: Bool
        /// For a dead pane: its exit status, 128 + the signal when a signal ended it.
        var exitStatus: Int32?

        var description: String {
            "alternate screen \(alternateOn ? "on" : "off"), cursor \(cursorVisible ? "visible" : "hidden"), "
                + (dead ? "ended with \(exitStatus.map(String.init) ?? "?")" : "running")
        }
    }

    func paneState() async throws -> PaneState {
        let format = "#{alternate_on} #{cursor_flag} #{pane_dead} [#{pane_dead_status}] [#{pane_dead_signal}]"
        let text = try await run(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
        let fields = text.split(separator: " ").map {
            String($0).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        }
        try #require(fields.count == 5, "tmux said \(text)")
        var exit: Int32?
        if let status = Int32(fields[3]) {
            exit = status
        } else if let signal = Int32(fields[4]) {
            exit = 128 + signal
        }
        return PaneState(
            alternateOn: fields[0] == "1", cursorVisible: fields[1] == "1", dead: fields[2] == "1", exitStatus: exit)
    }

    /// Waits until the pane's state satisfies `condition`; returns the last state either way.
    @discardableResult
    func waitForPane(timeout: TimeInterval = 20, _ condition: (PaneState) -> Bool) async throws -> PaneState {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var last = try await paneState()
        while !condition(last) && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            if last.dead && last.exitStatus == nil { try await nudgeServer() }
            last = try await paneState()
        }
        return last
    }

    /// tmux 3.3a sometimes misses the SIGCHLD of a pane's program that closed its terminal just
    /// before it ended: the program stays a zombie and the pane dead without an exit status.
    /// Another SIGCHLD makes the server reap it (and record the status); it does nothing else.
    private func nudgeServer() async throws {
        let text = try await run(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        if let server = pid_t(text) { kill(server, SIGCHLD) }
    }

    /// tmux starts from a small, explicit environment: the test runner's own (which `swift test`
    /// gives NO_COLOR, for one) must not leak into the panes. The time zone and a clock moved by
    /// libfaketime do go through: the programs in the panes must live on the test's calendar.
    static let environment: [String: String] = {
        let inherited = ProcessInfo.processInfo.environment
        var env = [
            "PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp", "LANG": "C.UTF-8",
        ]
        for (key, value) in inherited
        where ["TMPDIR", "TZ", "LD_PRELOAD"].contains(key) || key.hasPrefix("FAKETIME") || key.hasPrefix("DONT_FAKE") {
            env[key] = value
        }
        return env
    }()

    @discardableResult
    private func run(_ arguments: [String], capture: Bool = true) async throws -> String {
        let result = try await Command.run(
            "/usr/bin/tmux", ["-L", String(socket), "-f", "/dev/null"] + arguments, environment: Self.environment,
            capture: capture, timeout: 30)
        return result.stdout
    }
}
