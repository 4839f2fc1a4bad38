import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP for commands without a screen: the handler only records the
/// signal; the command finishes the write in hand, then exits with 128 + the signal number.
public enum StopSignals {
    public static func install() {
        received.store(0, ordering: .sequentiallyConsistent)
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received.store($0, ordering: .sequentiallyConsistent) }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            sigaddset(&handled, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// The exit status a received signal asks for, if one was received.
    public static func requestedExitStatus() -> Int32? {
        let signal = received.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : 128 + signal
    }
}

private let received = Atomic<Int32>(0)
