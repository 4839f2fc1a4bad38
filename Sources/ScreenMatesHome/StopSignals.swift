import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP for commands without a screen: the handler records the signal
/// and wakes the command's `StopRequest`; the command finishes the write in hand, then exits
/// with 128 + the signal number.
public enum StopSignals {
    /// Installs the handlers: from now on a stop signal is recorded, and seen by the request
    /// `watching` hands out (one received before it counts at once).
    public static func install() {
        received.store(0, ordering: .sequentiallyConsistent)
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            // Only what is safe in a handler: an atomic store and a write to a pipe.
            action.__sigaction_handler.sa_handler = { signal in
                received.store(signal, ordering: .sequentiallyConsistent)
                let target = wakeTarget.load(ordering: .sequentiallyConsistent)
                if target >= 0 {
                    var byte: UInt8 = 1
                    _ = write(target, &byte, 1)
                }
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            sigaddset(&handled, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Runs `body` with the request the stop signals make (`install` first), and closes it
    /// before returning: whatever it started to wait for them is gone by then.
    public static func watching<T, E: Error>(_ body: (StopRequest) async throws(E) -> T) async throws(E) -> T {
        let request = StopRequest(signalled: { requestedExitStatus() })
        // Kept for the process: a handler that read the descriptor a moment before it is taken
        // back may still write to it, which must never reach a descriptor opened since.
        kept.withLock { $0.append(request) }
        wakeTarget.store(request.signalDescriptor, ordering: .sequentiallyConsistent)
        if requestedExitStatus() != nil {
            var byte: UInt8 = 1
            _ = write(request.signalDescriptor, &byte, 1)
        }
        let result: Result<T, E>
        do {
            result = .success(try await body(request))
        } catch {
            result = .failure(error)
        }
        wakeTarget.store(-1, ordering: .sequentiallyConsistent)
        await request.close()
        return try result.get()
    }

    /// The exit status a received signal asks for, if one was received.
    public static func requestedExitStatus() -> Int32? {
        let signal = received.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : 128 + signal
    }

    private static let kept = Mutex<[StopRequest]>([])
}

private let received = Atomic<Int32>(0)
/// The pipe the handler writes to; -1 while no request is watching.
private let wakeTarget = Atomic<Int32>(-1)
