import Foundation
import Testing

/// Golden files: the expected text of a frame, kept in `Goldens/<name>.txt` next to this file.
///
/// With `SCREENMATES_UPDATE_GOLDENS=1` in the environment the file is (re)written instead of
/// compared, and the test records an issue saying so, so a run that rewrites goldens can never
/// pass by accident: look at the new file (`git diff`), then run again without the variable.
enum Golden {
    static let updateVariable = "SCREENMATES_UPDATE_GOLDENS"

    static var isUpdating: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }

    static func url(named name: String, filePath: String = #filePath) -> URL {
        URL(filePath: filePath).deletingLastPathComponent().appending(components: "Goldens", "\(name).txt")
    }

    /// Compares `actual` with the golden file `name`, or rewrites the file when updating.
    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = url(named: name)
        let contents = actual + "\n"
        if isUpdating {
            do {
                try contents.write(to: url, atomically: true, encoding: .utf8)
                Issue.record(
                    "Rewrote golden \(url.lastPathComponent); check it, then run again without \(updateVariable).",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("Could not write golden \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        if let problem = mismatch(contents, goldenAt: url) {
            Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
        }
    }

    /// Why `contents` does not match the golden file at `url`, or `nil` when it does.
    static func mismatch(_ contents: String, goldenAt url: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return """
                Golden file \(url.path) is missing. Create it with
                    \(updateVariable)=1 swift test --filter ScreenMatesUITests
                then look at it before committing it.
                """
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != contents else { return nil }
        return """
            Frame differs from golden \(url.lastPathComponent) (- golden, + actual); \
            if the change is intended, rerun with \(updateVariable)=1:
            \(lineDiff(expected: expected, actual: contents))
            """
    }

    /// A line diff (longest common subsequence), with golden line numbers, unchanged lines
    /// left out except for one line of context around each change.
    static func lineDiff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // common[i][j] = length of the longest common subsequence of old[i...] and new[j...].
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        enum Change {
            case same(Int, String)
            case removed(Int, String)
            case added(String)
        }
        var changes: [Change] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count && j < new.count && old[i] == new[j] {
                changes.append(.same(i + 1, old[i]))
                i += 1
                j += 1
            } else if i < old.count && (j == new.count || common[i + 1][j] >= common[i][j + 1]) {
                changes.append(.removed(i + 1, old[i]))
                i += 1
            } else {
                changes.append(.added(new[j]))
                j += 1
            }
        }
        func isChange(_ index: Int) -> Bool {
            guard changes.indices.contains(index) else { return false }
            if case .same = changes[index] { return false }
            return true
        }
        var lines: [String] = []
        for (index, change) in changes.enumerated() {
            switch change {
            case .same(let number, let text):
                if isChange(index - 1) || isChange(index + 1) { lines.append("  \(pad(number)) |\(text)") }
            case .removed(let number, let text):
                lines.append("- \(pad(number)) |\(text)")
            case .added(let text):
                lines.append("+      |\(text)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ number: Int) -> String {
        let text = String(number)
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }
}
