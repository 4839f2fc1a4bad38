/// A rectangle of cells, for laying out views on a frame. Its width and height are never
/// negative: splitting or insetting a rectangle that is too small gives an empty one, not an
/// inverted one.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The area inside a one-cell border.
    public var inner: Rect { Rect(x: x + 1, y: y + 1, width: width - 2, height: height - 2) }

    /// Splits into columns of the given widths from the left; the last gets what remains.
    public func columns(_ widths: [Int], gap: Int = 0) -> [Rect] {
        var result: [Rect] = []
        var left = x
        for (index, width) in widths.enumerated() {
            let w = index == widths.count - 1 ? maxX - left : min(width, maxX - left)
            result.append(Rect(x: left, y: y, width: w, height: height))
            left += w + gap
        }
        return result
    }

    /// The top `rows` rows, and what remains below them.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let h = min(rows, height)
        return (Rect(x: x, y: y, width: width, height: h), Rect(x: x, y: y + h, width: width, height: height - h))
    }

    /// The bottom `rows` rows, and what remains above them.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let h = min(rows, height)
        return (Rect(x: x, y: y, width: width, height: height - h), Rect(x: x, y: maxY - h, width: width, height: h))
    }
}
