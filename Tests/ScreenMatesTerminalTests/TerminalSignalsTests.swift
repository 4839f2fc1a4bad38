import Glibc
import ScreenMatesWatch
import Testing

@testable import ScreenMatesTerminal

/// The dashboard's signal handlers, installed and removed in this process without a terminal.
/// Serialized: signal dispositions and the pending flags are process-wide.
@Suite(.serialized) struct TerminalSignalsTests {
    static let caught = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// The handler now set for `signal`: `nil` is the default action.
    private func handler(of signal: Int32) -> Int? {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return current.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) }
    }

    private var ignore: Int { unsafeBitCast(SIG_IGN, to: Int.self) }

    /// Runs `body` and puts every caught signal's disposition back as it was.
    private func keepingDispositions(_ body: () throws -> Void) rethrows {
        var saved: [sigaction] = Array(repeating: sigaction(), count: Self.caught.count)
        for (index, signal) in Self.caught.enumerated() { sigaction(signal, nil, &saved[index]) }
        defer {
            for (index, signal) in Self.caught.enumerated() { sigaction(signal, &saved[index], nil) }
            _ = TerminalSignals.take()
        }
        try body()
    }

    private func bytesWaiting(in pipe: WakePipe) -> Int {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(pipe.readFD, &buffer, buffer.count)
        return max(0, count)
    }

    @Test func eachCaughtSignalHasItsOwnFlagAndOthersNone() {
        let flags = Self.caught.map { TerminalSignals.flag(for: $0) }
        #expect(flags.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 }, "one bit each")
        #expect(Set(flags).count == flags.count)
        #expect(
            flags
                == [
                    TerminalSignals.Pending.interrupt, .terminate, .hangUp, .resize, .suspend, .resumed,
                ].map(\.rawValue))
        for other in [SIGUSR1, SIGUSR2, SIGSEGV, SIGPIPE, 0, 999] {
            #expect(TerminalSignals.flag(for: other) == 0, "signal \(other)")
        }
    }

    @Test func aCaughtSignalIsRecordedAndWakesTheLoop() {
        keepingDispositions {
            let pipe = WakePipe()
            TerminalSignals.install(wakeFD: pipe.writeFD)
            defer { TerminalSignals.uninstall() }
            raise(SIGWINCH)
            #expect(TerminalSignals.take() == .resize)
            #expect(bytesWaiting(in: pipe) == 1)
            raise(SIGINT)
            raise(SIGCONT)
            #expect(TerminalSignals.take() == [.interrupt, .resumed])
            #expect(bytesWaiting(in: pipe) == 2)
            #expect(TerminalSignals.take().isEmpty)
        }
    }

    /// After the screen is restored: Ctrl-C and SIGTERM end the program again, and no late
    /// signal writes to the wake pipe's descriptor (which is closed next and may be reused).
    @Test func uninstallPutsTheDefaultActionsBackAndStopsWritingToThePipe() {
        keepingDispositions {
            let pipe = WakePipe()
            TerminalSignals.install(wakeFD: pipe.writeFD)
            for signal in Self.caught { #expect(handler(of: signal) != nil, "signal \(signal) not caught") }
            TerminalSignals.uninstall()
            #expect(signalWakeFD.load(ordering: .sequentiallyConsistent) == -1)
            for signal in Self.caught {
                #expect(handler(of: signal) == nil, "signal \(signal) still has a handler after uninstall")
            }
            // SIGWINCH's default is to ignore it: safe to send here. Nothing is recorded or written.
            raise(SIGWINCH)
            #expect(TerminalSignals.take().isEmpty)
            #expect(bytesWaiting(in: pipe) == 0)
        }
    }

    /// The exit status still comes out right: what arrived while the screen was up and was not
    /// taken yet is still there after uninstall.
    @Test func aSignalReceivedBeforeUninstallStaysPending() {
        keepingDispositions {
            let pipe = WakePipe()
            TerminalSignals.install(wakeFD: pipe.writeFD)
            raise(SIGTERM)
            TerminalSignals.uninstall()
            #expect(TerminalSignals.take() == .terminate)
        }
    }

    /// Started under `nohup`, SIGHUP stays ignored once the screen is gone.
    @Test func aSignalIgnoredBeforeInstallIsIgnoredAgainAfterUninstall() {
        keepingDispositions {
            signal(SIGHUP, SIG_IGN)
            let pipe = WakePipe()
            TerminalSignals.install(wakeFD: pipe.writeFD)
            #expect(handler(of: SIGHUP) != ignore)
            TerminalSignals.uninstall()
            #expect(handler(of: SIGHUP) == ignore)
            #expect(handler(of: SIGINT) == nil)
        }
    }
}
