import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesHome
import Subprocess
import SystemPackage

/// Sends notices to the desktop: as terminal escape sequences that terminals turn into desktop
/// notifications (OSC 777 for VTE terminals and foot/kitty/WezTerm, OSC 9 for iTerm2, Windows
/// Terminal and others), and through `notify-send` where it is installed and a desktop session is
/// there to show it (run through swift-subprocess, in a task with an owner).
package enum DesktopNotifier {
    /// The escape sequences for one notice, as `terminal` understands them (none where it is
    /// not known to: see `DesktopNoticeCarrier`). The text is made safe first: no control character
    /// can end the sequence early or smuggle another one in, and no ";" can start another field
    /// (OSC 777 separates title and body with it; some terminals read `OSC 9;4;…` as a command).
    /// Where the terminal is not UTF-8 (`asciiOnly`), every other character becomes "?": such a
    /// terminal may take a byte of a UTF-8 character (0x9B, 0x9C) for an 8-bit control.
    package static func sequences(for notice: Notice, terminal: DesktopNoticeCarrier, asciiOnly: Bool = false) -> String
    {
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

    /// Runs `notify-send` for each notice, when it is on the PATH and a desktop is there, in a
    /// task of `tasks`: the caller (the dashboard's loop) never waits for a desktop, and the
    /// session awaits the task before it returns.
    package static func notifySend(
        _ notices: [Notice], in tasks: BackgroundTasks,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        guard let program = notifySendProgram(environment), !notices.isEmpty else { return }
        let texts = notices.map { (title: plain($0.title), body: plain($0.body)) }
        tasks.start { await send(texts, with: program, environment: environment) }
    }

    /// `notify-send` on the PATH, when a desktop session is there to show what it sends.
    private static func notifySendProgram(_ environment: [String: String]) -> String? {
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return nil }
        return (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { directory -> String in "\(directory)/notify-send" }
            .first { path in access(path, X_OK) == 0 }
    }

    /// Runs `program` once per notice, one after the other. A task cancelled meanwhile (the
    /// session ending) gives the one running two seconds to finish before it is killed: the
    /// first step of the teardown sends a signal that changes nothing (SIGCONT) and waits.
    private static func send(
        _ texts: [(title: String, body: String)], with program: String, environment: [String: String]
    ) async {
        var options = PlatformOptions()
        options.teardownSequence = [.send(signal: .resume, allowedDurationToNextStep: .seconds(2))]
        let keys = Dictionary(
            environment.compactMap { key, value in Environment.Key(rawValue: key).map { ($0, value) } },
            uniquingKeysWith: { first, _ in first })
        for text in texts {
            _ = try? await Subprocess.run(
                .path(FilePath(program)), arguments: ["--app-name=ScreenMates", text.title, text.body],
                environment: .custom(keys), platformOptions: options, input: .none, output: .discarded,
                error: .discarded)
        }
    }
}
