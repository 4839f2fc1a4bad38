import ScreenMatesUI
import Testing

@testable import ScreenMatesTerminal

/// What the terminal writes for a frame, given what it believes is on screen: only changes
/// normally, everything again once that belief is forgotten (`r`, Ctrl-L, resize, resume).
@Suite struct DisplayedFrameTests {
    private func frame(_ text: String) -> Frame {
        var frame = Frame(width: 12, height: 3)
        frame.put(text, x: 1, y: 1, style: Style(.accent))
        return frame
    }

    private func cellsCovered(_ runs: [FrameRun]) -> Int { runs.reduce(0) { $0 + $1.cellCount } }

    @Test func theFirstFrameIsWrittenWhole() {
        var displayed = DisplayedFrame()
        #expect(cellsCovered(displayed.runs(toShow: frame("hello"))) == 12 * 3)
    }

    @Test func anUnchangedFrameWritesNothingAndAChangedOneOnlyItsChanges() {
        var displayed = DisplayedFrame()
        _ = displayed.runs(toShow: frame("hello"))
        #expect(displayed.runs(toShow: frame("hello")).isEmpty)
        let runs = displayed.runs(toShow: frame("hullo"))
        #expect(runs.map(\.text) == ["u"])
    }

    /// The bug behind "`r` never repaints": the same frame again wrote nothing, so whatever
    /// another program had written over the dashboard stayed on screen.
    @Test func afterForgettingTheSameFrameIsWrittenWhole() {
        var displayed = DisplayedFrame()
        _ = displayed.runs(toShow: frame("hello"))
        displayed.forget()
        #expect(displayed.frame == nil)
        #expect(cellsCovered(displayed.runs(toShow: frame("hello"))) == 12 * 3)
        #expect(displayed.runs(toShow: frame("hello")).isEmpty)
    }
}
