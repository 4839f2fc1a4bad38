import ScreenMatesUI

/// What the terminal shows, as far as this program knows: the last frame written, or nothing.
///
/// Drawing writes only the cells that differ from it, so it must be forgotten whenever the
/// screen may show something else (another program wrote to the tty, a resize, a resume):
/// after `forget()` the next frame is written whole, even when it is the same frame.
struct DisplayedFrame {
    private(set) var frame: Frame?

    /// The runs that bring the screen to `next`, which then counts as shown.
    mutating func runs(toShow next: Frame) -> [FrameRun] {
        let runs = next.changes(from: frame)
        frame = next
        return runs
    }

    mutating func forget() { frame = nil }
}
