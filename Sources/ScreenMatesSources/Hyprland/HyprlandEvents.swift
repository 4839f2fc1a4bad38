import Foundation

/// What Hyprland says about the active window, in its two forms: the JSON of `j/activewindow`
/// (`{}` when no window is active) and the event line `activewindow>>CLASS,TITLE` (`,` alone
/// when none is). Hyprland writes the line without escaping, so the class is what comes before
/// the first comma; the title is the rest (titles hold commas, classes hardly ever do).
enum HyprlandEvents {
    struct ActiveWindow: Equatable, Decodable {
        var windowClass: String
        var title: String

        enum CodingKeys: String, CodingKey {
            case windowClass = "class"
            case title
        }
    }

    /// The reply to `j/activewindow`; `nil` when no window is active.
    static func activeWindow(reply: [UInt8]) throws(FocusProbeError) -> ActiveWindow? {
        let text = String(decoding: reply, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text != "{}", text != "Invalid" else { return nil }
        let window: ActiveWindow
        do {
            window = try JSONDecoder().decode(ActiveWindow.self, from: Data(text.utf8))
        } catch {
            throw FocusProbeError(
                "Hyprland's answer to j/activewindow is not the JSON it gives (\(text.prefix(80))).")
        }
        return window.windowClass.isEmpty ? nil : window
    }

    /// The window an `activewindow>>` line names: `.some(nil)` when it says none is active,
    /// `nil` for any other event.
    static func activeWindow(event line: Substring) -> ActiveWindow?? {
        let prefix = "activewindow>>"
        guard line.hasPrefix(prefix) else { return nil }
        let data = line.dropFirst(prefix.count)
        let comma = data.firstIndex(of: ",") ?? data.endIndex
        let windowClass = String(data[..<comma])
        guard !windowClass.isEmpty else { return .some(nil) }
        let title = comma < data.endIndex ? String(data[data.index(after: comma)...]) : ""
        return .some(ActiveWindow(windowClass: windowClass, title: title))
    }

    /// Takes the complete lines off the front of `buffer`.
    static func lines(_ buffer: inout [UInt8]) -> [Substring] {
        guard let last = buffer.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let text = String(decoding: buffer[...last], as: UTF8.self)
        buffer.removeFirst(last + 1)
        return text.split(separator: "\n")
    }
}
