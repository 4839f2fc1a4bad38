import ScreenMatesTerminal
import ScreenMatesUI

/// What the dashboard's loop needs of a screen: draw a frame, wait for what comes with a
/// deadline, its size, and the side channels (bell, escape sequences, theme). The terminal in a
/// run; a scripted screen in the tests, which drive whole sequences of keys, resizes and time
/// through the real loop and check its frames as text (as ratatui's `TestBackend` does).
protocol DashboardScreen: AnyObject {
    var glyphs: Glyphs { get }
    var width: Int { get }
    var height: Int { get }
    /// Writes the cells of `frame` that differ from the last frame written.
    @discardableResult func draw(_ frame: Frame) -> Int
    func bell()
    /// Writes an escape sequence that draws nothing (a desktop notification).
    func writeSequence(_ sequence: String)
    /// Forgets what the screen shows, so the next frame is written whole.
    func invalidate()
    func setTheme(_ theme: Theme)
    /// Waits until a key, a signal, a wake-up (`wakeUp`), one of `watching` is readable, or
    /// `timeout` seconds have passed; returns what happened.
    func nextEvents(timeout: Double, watching: [Int32]) -> ScreenEvents
    /// Ends a wait of `nextEvents`; safe from any thread.
    var wakeUp: @Sendable () -> Void { get }
}

/// What happened while the screen waited.
struct ScreenEvents: Hashable, Sendable {
    var keys: [KeyInput] = []
    /// A signal asks the program to end, with this exit status.
    var exitStatus: Int32?
    /// The screen changed size or came back from a suspend: redraw everything.
    var needsFullRedraw = false
    /// The program was suspended and resumed (time may have passed).
    var resumed = false
}

extension Terminal: DashboardScreen {
    func nextEvents(timeout: Double, watching: [Int32]) -> ScreenEvents {
        let events = waitForEvents(timeout: timeout, extraDescriptors: watching)
        return ScreenEvents(
            keys: events.keys, exitStatus: events.ending?.exitStatus, needsFullRedraw: events.needsFullRedraw,
            resumed: events.resumed)
    }

    var wakeUp: @Sendable () -> Void {
        let pipe = wake
        return { pipe.wake() }
    }
}
