import CNcursesw
import Glibc
import Synchronization

/// Puts the terminal back the way it was when the program crashes (SIGSEGV, SIGABRT, a Swift
/// trap…) or exits without stopping the screen.
///
/// A crash handler can only use async-signal-safe calls, so everything it needs is prepared
/// at start-up: the original termios settings and the escape sequences that leave the
/// alternate screen, show the cursor and reset attributes, in memory that is never freed.
enum TerminalRestorer {
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    /// Records the terminal's current settings; call before ncurses changes them.
    static func captureOriginalSettings() {
        let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        guard tcgetattr(STDIN_FILENO, saved) == 0 else {
            saved.deallocate()
            return
        }
        savedTermios.store(UInt(bitPattern: saved), ordering: .sequentiallyConsistent)
    }

    /// Records the escape sequences that undo what curses mode did; call after ncurses started.
    static func captureRestoreSequence() {
        var bytes: [UInt8] = []
        for capability in ["rmcup", "cnorm", "sgr0", "rmkx"] {
            if let value = sm_tigetstr(capability) {
                bytes.append(contentsOf: Array(String(cString: value).utf8))
            }
        }
        bytes.append(contentsOf: Array("\r\n".utf8))
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        restoreLength.store(bytes.count, ordering: .sequentiallyConsistent)
        restoreBytes.store(UInt(bitPattern: buffer), ordering: .sequentiallyConsistent)
    }

    /// Installs the crash handlers and an exit hook; the previous crash handlers (such as the
    /// Swift runtime's backtracer) still run afterwards.
    static func installCrashHandlers() {
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: crashSignals.count)
        for (index, signal) in crashSignals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreThenRaise
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
            (previous + index).initialize(to: sigaction())
            sigaction(signal, &action, previous + index)
        }
        previousActions.store(UInt(bitPattern: previous), ordering: .sequentiallyConsistent)
        atexit { TerminalRestorer.restoreIfActive() }
    }

    /// Marks the screen as in curses mode (or not): only then does a crash need restoring.
    static func setActive(_ active: Bool) {
        screenActive.store(active, ordering: .sequentiallyConsistent)
    }

    /// Async-signal-safe restore: write the sequences, put termios back.
    static func restoreIfActive() {
        guard screenActive.exchange(false, ordering: .sequentiallyConsistent) else { return }
        let bytes = restoreBytes.load(ordering: .sequentiallyConsistent)
        let length = restoreLength.load(ordering: .sequentiallyConsistent)
        if bytes != 0 {
            _ = write(STDOUT_FILENO, UnsafeRawPointer(bitPattern: bytes), length)
        }
        let termiosAddress = savedTermios.load(ordering: .sequentiallyConsistent)
        if let saved = UnsafePointer<termios>(bitPattern: termiosAddress) {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, saved)
        }
    }

    fileprivate static func previousAction(for signal: Int32) -> UnsafeMutablePointer<sigaction>? {
        guard let index = crashSignals.firstIndex(of: signal),
            let base = UnsafeMutablePointer<sigaction>(
                bitPattern: previousActions.load(ordering: .sequentiallyConsistent))
        else { return nil }
        return base + index
    }
}

let screenActive = Atomic<Bool>(false)
let savedTermios = Atomic<UInt>(0)
let restoreBytes = Atomic<UInt>(0)
let restoreLength = Atomic<Int>(0)
let previousActions = Atomic<UInt>(0)

private func restoreThenRaise(_ signal: Int32) {
    TerminalRestorer.restoreIfActive()
    if let previous = TerminalRestorer.previousAction(for: signal) {
        sigaction(signal, previous, nil)
    }
    raise(signal)
}
