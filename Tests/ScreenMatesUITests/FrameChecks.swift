import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// Checks every golden test makes on a frame, besides comparing it with its file.
enum FrameChecks {
    /// Every line of the text, and every row of cells, fits in the frame's width.
    static func expectFitsWidth(_ frame: Frame, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == frame.height, sourceLocation: sourceLocation)
        for (index, line) in lines.enumerated() {
            #expect(CellWidth.of(String(line)) <= frame.width, "line \(index + 1)", sourceLocation: sourceLocation)
        }
        for y in 0..<frame.height {
            #expect(CellWidth.of(frame.line(y)) == frame.width, "row \(y)", sourceLocation: sourceLocation)
        }
    }

    /// No escape, bell, bidi, zero-width or other control character reached the frame.
    static func expectNoUnsafeCharacters(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for scalar in ["\u{1B}", "\u{7}", "\u{202E}", "\u{200B}"] as [Unicode.Scalar] {
            #expect(
                !text.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16, uppercase: true))",
                sourceLocation: sourceLocation)
        }
        #expect(
            !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
            "a control character", sourceLocation: sourceLocation)
    }

    /// Only ASCII characters.
    static func expectASCII(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let nonASCII = text.unicodeScalars.filter { !$0.isASCII }
        #expect(
            nonASCII.isEmpty, "non-ASCII characters: \(nonASCII.map { "U+\(String($0.value, radix: 16))" })",
            sourceLocation: sourceLocation)
    }

    /// Renders `model` and checks that the frame fits its width.
    static func render(
        _ model: ScreensModel, glyphs: Glyphs = .unicode, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Frame {
        let frame = ScreenRenderer.render(model, glyphs: glyphs)
        expectFitsWidth(frame, sourceLocation: sourceLocation)
        expectNoUnsafeCharacters(frame.text, sourceLocation: sourceLocation)
        return frame
    }
}
