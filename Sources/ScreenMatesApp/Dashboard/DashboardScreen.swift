import ScreenMatesTerminal
import ScreenMatesUI

/// What the dashboard needs of a screen: the terminal in a run, a recording screen in tests
/// (frames checked as text).
protocol DashboardScreen: AnyObject {
    var glyphs: Glyphs { get }
    /// Writes the cells of `frame` that differ from the last frame written.
    @discardableResult func draw(_ frame: Frame) -> Int
    func bell()
    /// Writes an escape sequence that draws nothing (a desktop notification).
    func writeSequence(_ sequence: String)
    /// Forgets what the screen shows, so the next frame is written whole.
    func invalidate()
    func setTheme(_ theme: Theme)
}

extension Terminal: DashboardScreen {}
