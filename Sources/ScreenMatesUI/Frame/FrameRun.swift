/// A run of cells on one row that share a style: the unit the terminal writes. A run never
/// starts on the right half of a wide character, and its text holds both halves' character
/// once, so the terminal never writes half a character.
public struct FrameRun: Hashable, Sendable {
    public let x: Int
    public let y: Int
    public let text: String
    /// Cells covered, continuation halves included.
    public let cellCount: Int
    public let style: Style
}

extension Frame {
    /// The runs that turn `previous` into this frame; every cell when there is no previous
    /// frame of the same size. An unchanged frame gives no runs at all.
    public func changes(from previous: Frame?) -> [FrameRun] {
        let full = previous == nil || previous!.width != width || previous!.height != height
        var runs: [FrameRun] = []
        for y in 0..<height {
            var x = 0
            while x < width {
                let index = y * width + x
                if !full && previous!.cells[index] == cells[index] {
                    x += 1
                    continue
                }
                // Start at the left half of a wide character.
                var start = x
                if cells[y * width + start].isContinuation && start > 0 { start -= 1 }
                let style = cells[y * width + start].style
                var end = start
                var text = ""
                while end < width {
                    let cell = cells[y * width + end]
                    if cell.style != style && !cell.isContinuation { break }
                    if !full && end > x && previous!.cells[y * width + end] == cell && !cell.isContinuation {
                        break
                    }
                    text += cell.text
                    end += 1
                }
                runs.append(FrameRun(x: start, y: y, text: text, cellCount: end - start, style: style))
                x = max(end, x + 1)
            }
        }
        return runs
    }
}
