import Glibc
import Synchronization

/// The signals the dashboard reacts to, caught by tiny handlers that only record the signal
/// and write one byte to a wake-up pipe. Everything else happens on the main thread, after the
/// wait returns: a handler never calls ncurses, and whichever thread the kernel picks to run
/// it, the main loop wakes at once.
///
/// Installed before ncurses starts, so ncurses installs none of its own (it only catches
/// signals left at their defaults) and the program keeps its own clean shutdown.
public enum TerminalSignals {
    /// What the main loop should do about the signals received since it last asked.
    public struct Pending: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let interrupt = Pending(rawValue: 1 << 0)
        public static let terminate = Pending(rawValue: 1 << 1)
        public static let hangUp = Pending(rawValue: 1 << 2)
        public static let resize = Pending(rawValue: 1 << 3)
        public static let suspend = Pending(rawValue: 1 << 4)
        public static let resumed = Pending(rawValue: 1 << 5)
    }

    static let caught = [
        (SIGINT, Pending.interrupt), (SIGTERM, .terminate), (SIGHUP, .hangUp), (SIGWINCH, .resize),
        (SIGTSTP, .suspend), (SIGCONT, .resumed),
    ]

    /// Installs the handlers. `wakeFD` is the write end of the loop's wake-up pipe.
    public static func install(wakeFD: Int32) {
        // Touch the globals first so no lazy initialisation ever runs inside a handler.
        pendingSignals.store(0, ordering: .relaxed)
        signalWakeFD.store(wakeFD, ordering: .sequentiallyConsistent)
        var handled = sigset_t()
        sigemptyset(&handled)
        for (signal, _) in caught {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = recordSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
            sigaddset(&handled, signal)
        }
        // A parent may have started us with these signals blocked (a blocked mask survives
        // exec); unblock them, or Ctrl-C, SIGTERM and resizes would never arrive.
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Returns and clears what was received.
    public static func take() -> Pending {
        Pending(rawValue: pendingSignals.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// Stops this process the way Ctrl-Z normally does, and returns once it is continued.
    /// The caller leaves curses mode first and redraws afterwards.
    static func stopProcess() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(SIGTSTP, &action, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        kill(0, SIGTSTP)
        // Continued: catch Ctrl-Z again.
        action.__sigaction_handler.sa_handler = recordSignal
        sigaction(SIGTSTP, &action, nil)
    }
}

let pendingSignals = Atomic<Int32>(0)
let signalWakeFD = Atomic<Int32>(-1)

private func recordSignal(_ signal: Int32) {
    let saved = errno
    for (caught, flag) in TerminalSignals.caught where caught == signal {
        pendingSignals.bitwiseOr(flag.rawValue, ordering: .acquiringAndReleasing)
    }
    let fd = signalWakeFD.load(ordering: .sequentiallyConsistent)
    if fd >= 0 {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
    errno = saved
}
