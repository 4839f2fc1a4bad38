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
    /// The signals that mean a crash. Read on the main thread only, never in a handler.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    /// The slot of a crash signal's previous action in `previousActions`; `nil` for any other
    /// signal. A switch on constants, so the crash handler can call it: no collection, no lazily
    /// initialised global. Keep it in step with `crashSignals` (a test checks both).
    @inline(__always)
    static func slot(for signal: Int32) -> Int? {
        switch signal {
        case SIGSEGV: return 0
        case SIGBUS: return 1
        case SIGILL: return 2
        case SIGFPE: return 3
        case SIGABRT: return 4
        case SIGTRAP: return 5
        case SIGQUIT: return 6
        default: return nil
        }
    }

    /// Slots in `previousActions`: one per crash signal.
    static let slotCount = 7

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

    /// Installs the crash handlers and an exit hook, once per process; the previous crash
    /// handlers (such as the Swift runtime's backtracer) still run afterwards.
    static func installCrashHandlers() {
        // Touch the globals first so no lazy initialisation ever runs inside a handler.
        _ = screenActive.load(ordering: .sequentiallyConsistent)
        _ = savedTermios.load(ordering: .sequentiallyConsistent)
        _ = restoreBytes.load(ordering: .sequentiallyConsistent)
        _ = restoreLength.load(ordering: .sequentiallyConsistent)
        // A second install would record our own handler as the "previous" one, and a crash
        // would then re-raise into itself for ever.
        guard !crashHandlersInstalled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: slotCount)
        previous.initialize(repeating: sigaction(), count: slotCount)
        for signal in crashSignals {
            guard let slot = slot(for: signal) else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreThenRaise
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
            sigaction(signal, &action, previous + slot)
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

    /// Async-signal-safe: a switch and an atomic load.
    fileprivate static func previousAction(for signal: Int32) -> UnsafeMutablePointer<sigaction>? {
        guard let index = slot(for: signal),
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
let crashHandlersInstalled = Atomic<Bool>(false)

/// The crash handler: atomics, `write`, `tcsetattr`, `sigaction` and `raise`, all
/// async-signal-safe.
private func restoreThenRaise(_ signal: Int32) {
    TerminalRestorer.restoreIfActive()
    if let previous = TerminalRestorer.previousAction(for: signal) {
        sigaction(signal, previous, nil)
    }
    raise(signal)
}
