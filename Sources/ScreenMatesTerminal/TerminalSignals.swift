import Glibc
import Synchronization

/// The signals the dashboard reacts to, caught by tiny handlers that only record the signal
/// and write one byte to a wake-up pipe. Everything else happens on the main thread, after the
/// wait returns: a handler never calls ncurses, and whichever thread the kernel picks to run
/// it, the main loop wakes at once.
///
/// Installed before ncurses starts, so ncurses installs none of its own (it only catches
/// signals left at their defaults) and the program keeps its own clean shutdown. Uninstalled
/// once the screen is restored, so a later Ctrl-C or SIGTERM ends the program the usual way.
public enum TerminalSignals {
    /// What the main loop should do about the signals received since it last asked.
    public struct Pending: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let interrupt = Pending(rawValue: flag(for: SIGINT))
        public static let terminate = Pending(rawValue: flag(for: SIGTERM))
        public static let hangUp = Pending(rawValue: flag(for: SIGHUP))
        public static let resize = Pending(rawValue: flag(for: SIGWINCH))
        public static let suspend = Pending(rawValue: flag(for: SIGTSTP))
        public static let resumed = Pending(rawValue: flag(for: SIGCONT))
    }

    /// The signals caught while the screen is up. Read on the main thread only, never in a
    /// handler (a handler must not touch a Swift array).
    static let caught = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// The `Pending` bit a caught signal sets, 0 for any other signal. A switch on constants,
    /// so the signal handler can call it: no collection, no lazily initialised global.
    @inline(__always)
    static func flag(for signal: Int32) -> Int32 {
        switch signal {
        case SIGINT: return 1 << 0
        case SIGTERM: return 1 << 1
        case SIGHUP: return 1 << 2
        case SIGWINCH: return 1 << 3
        case SIGTSTP: return 1 << 4
        case SIGCONT: return 1 << 5
        default: return 0
        }
    }

    /// Installs the handlers. `wakeFD` is the write end of the loop's wake-up pipe.
    public static func install(wakeFD: Int32) {
        // Touch the globals first so no lazy initialisation ever runs inside a handler.
        pendingSignals.store(0, ordering: .relaxed)
        signalWakeFD.store(wakeFD, ordering: .sequentiallyConsistent)
        var ignored: Int32 = 0
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in caught {
            var previous = sigaction()
            setAction(signal, recordSignal, previous: &previous)
            if isIgnore(previous.__sigaction_handler.sa_handler) { ignored |= flag(for: signal) }
            sigaddset(&handled, signal)
        }
        ignoredBeforeInstall.store(ignored, ordering: .sequentiallyConsistent)
        // A parent may have started us with these signals blocked (a blocked mask survives
        // exec); unblock them, or Ctrl-C, SIGTERM and resizes would never arrive.
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Stops writing to the wake-up pipe (which may be closed next) and puts the default
    /// actions back, so that a Ctrl-C or SIGTERM arriving after the screen is restored ends
    /// the process as usual. A signal the parent had us ignore (`nohup`) is ignored again.
    ///
    /// Signals received before this and not yet taken stay pending: `take()` still returns
    /// them, so the caller can exit with 130, 143 or 129.
    public static func uninstall() {
        signalWakeFD.store(-1, ordering: .sequentiallyConsistent)
        let ignored = ignoredBeforeInstall.load(ordering: .sequentiallyConsistent)
        for signal in caught {
            var previous = sigaction()
            setAction(signal, ignored & flag(for: signal) != 0 ? SIG_IGN : SIG_DFL, previous: &previous)
        }
    }

    /// Returns and clears what was received.
    public static func take() -> Pending {
        Pending(rawValue: pendingSignals.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// Stops this process the way Ctrl-Z normally does, and returns once it is continued.
    /// The caller leaves curses mode first and redraws afterwards.
    static func stopProcess() {
        var previous = sigaction()
        setAction(SIGTSTP, SIG_DFL, previous: &previous)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        kill(0, SIGTSTP)
        // Continued: catch Ctrl-Z again.
        setAction(SIGTSTP, recordSignal, previous: &previous)
    }

    private static func setAction(
        _ signal: Int32, _ handler: (@convention(c) (Int32) -> Void)?, previous: inout sigaction
    ) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, &previous)
    }

    private static func isIgnore(_ handler: (@convention(c) (Int32) -> Void)?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

let pendingSignals = Atomic<Int32>(0)
let signalWakeFD = Atomic<Int32>(-1)
/// The `Pending` bits of the caught signals that were ignored before `install`.
let ignoredBeforeInstall = Atomic<Int32>(0)

/// The handler: only atomics and `write`, both async-signal-safe.
private func recordSignal(_ signal: Int32) {
    let saved = errno
    pendingSignals.bitwiseOr(TerminalSignals.flag(for: signal), ordering: .acquiringAndReleasing)
    let fd = signalWakeFD.load(ordering: .sequentiallyConsistent)
    if fd >= 0 {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
    errno = saved
}
