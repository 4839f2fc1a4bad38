import Foundation
import ScreenMatesUI
import Synchronization

@testable import ScreenMatesDashboard

/// A screen for the dashboard's tests, in the place of the terminal: it keeps every frame drawn
/// (checked as text) and what else was done to it, and answers each wait of the loop with the
/// next step of a script — keys, a resize, a resume, time passing — recording how long the loop
/// asked to sleep. Time is virtual: a step that lets time pass moves the app clock and the
/// monotonic clock the loop is given by the seconds it asked for, so no test waits or depends on
/// the machine's speed. With the script done, it ends the program (SIGTERM's status).
final class ScriptedScreen: DashboardScreen {
    /// One answer to a wait.
    enum Step {
        /// Keys typed.
        case keys([KeyInput])
        /// The terminal now has this size.
        case resize(width: Int, height: Int)
        /// The program was suspended (Ctrl-Z) and resumed.
        case resume
        /// Nothing but time: the loop sleeps the whole timeout it asked for.
        case sleep
        /// Something happens outside while the loop waits (another process writes, a task
        /// posts); the wait then ends as woken, with nothing of its own to report.
        case meanwhile(() -> Void)
        /// A signal ends the program.
        case signal(exitStatus: Int32)
    }

    let glyphs = Glyphs.unicode
    private(set) var width: Int
    private(set) var height: Int
    var frames: [Frame] = []
    var bells = 0
    var sequences: [String] = []
    var invalidations = 0
    var themes: [Theme] = []
    /// The timeout of every wait, in order.
    var timeouts: [Double] = []
    var script: [Step]
    /// Moves time on by the given seconds (the test's clocks).
    let advance: (Double) -> Void

    init(width: Int = 120, height: Int = 40, script: [Step] = [], advance: @escaping (Double) -> Void = { _ in }) {
        self.width = width
        self.height = height
        self.script = script
        self.advance = advance
    }

    /// The last frame drawn, as text.
    var text: String { frames.last?.text ?? "" }

    func draw(_ frame: Frame) -> Int {
        frames.append(frame)
        return 1
    }

    func bell() { bells += 1 }
    func writeSequence(_ sequence: String) { sequences.append(sequence) }
    func invalidate() { invalidations += 1 }
    func setTheme(_ theme: Theme) { themes.append(theme) }
    let wakeUp: @Sendable () -> Void = {}

    func nextEvents(timeout: Double, watching: [Int32]) -> ScreenEvents {
        timeouts.append(timeout)
        guard !script.isEmpty else { return ScreenEvents(exitStatus: 143) }
        switch script.removeFirst() {
        case .keys(let keys):
            return ScreenEvents(keys: keys)
        case .resize(let width, let height):
            self.width = width
            self.height = height
            return ScreenEvents(keys: [.resize], needsFullRedraw: true)
        case .resume:
            return ScreenEvents(needsFullRedraw: true, resumed: true)
        case .sleep:
            advance(timeout)
            return ScreenEvents()
        case .meanwhile(let happen):
            happen()
            return ScreenEvents()
        case .signal(let exitStatus):
            return ScreenEvents(exitStatus: exitStatus)
        }
    }
}

/// A monotonic clock the tests move by hand, for the loop's `instant`.
final class VirtualInstants: Sendable {
    private let origin = ContinuousClock.now
    private let elapsed = Mutex<Duration>(.zero)

    func now() -> ContinuousClock.Instant { origin + elapsed.withLock { $0 } }
    func advance(by seconds: Double) { elapsed.withLock { $0 += .seconds(seconds) } }
}
