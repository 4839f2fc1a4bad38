import Foundation
import Glibc
import ScreenMatesCore

/// Sends notices to the desktop: as terminal escape sequences that terminals turn into desktop
/// notifications (OSC 777 for VTE terminals and foot/kitty/WezTerm, OSC 9 for iTerm2, Windows
/// Terminal and others), and through `notify-send` where it is installed and a desktop session is
/// there to show it.
enum DesktopNotifier {
    /// The escape sequences for one notice, as `terminal` understands them (none where it is
    /// not known to: see `NoticeTerminal`). The text is made safe first: no control character
    /// can end the sequence early or smuggle another one in, and no ";" can start another field
    /// (OSC 777 separates title and body with it; some terminals read `OSC 9;4;…` as a command).
    /// Where the terminal is not UTF-8 (`asciiOnly`), every other character becomes "?": such a
    /// terminal may take a byte of a UTF-8 character (0x9B, 0x9C) for an 8-bit control.
    static func sequences(for notice: Notice, terminal: NoticeTerminal, asciiOnly: Bool = false) -> String {
        terminal.sequences(
            title: field(notice.title, asciiOnly: asciiOnly), body: field(notice.body, asciiOnly: asciiOnly),
            id: String(
                notice.key.unicodeScalars.filter {
                    $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-")
                }.prefix(40)))
    }

    /// One field of a sequence: plain text without ";".
    private static func field(_ text: String, asciiOnly: Bool) -> String {
        let safe = plain(text).replacingOccurrences(of: ";", with: ",")
        return asciiOnly ? String(safe.map { $0.isASCII ? $0 : "?" }) : safe
    }

    /// Text for inside an escape sequence: displayable, without any control character.
    static func plain(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                SafeText.displayable(text).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    /// Runs `notify-send` for each notice, when it is on the PATH and a desktop is there.
    ///
    /// The caller (the dashboard's loop) never waits for a desktop: Foundation's `Process`
    /// starts `notify-send` and reaps it itself when it ends. (swift-subprocess, which runs the
    /// other child processes, only awaits its children, and this caller cannot await.)
    static func notifySend(_ notices: [Notice]) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
            let program = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .map({ directory -> String in "\(directory)/notify-send" })
                .first(where: { path in access(path, X_OK) == 0 })
        else { return }
        for notice in notices {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = ["--app-name=ScreenMates", plain(notice.title), plain(notice.body)]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
        }
    }
}
