import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesMonitorRuntime

/// Desktop notices go to the terminal as OSC 777 and OSC 9 sequences, and their text may hold a
/// group-mate's name: nothing in a title or a body may end a sequence, start another, or add a
/// field. The only control characters written are the sequences' own framing.
@Suite struct DesktopNotifierTests {
    private static let day = LocalDate(iso8601: "2026-11-21")!
    /// A terminal that shows OSC 777 and OSC 9, without tmux.
    private static let osc = DesktopNoticeCarrier(kind: .osc777AndOsc9, throughTmux: false)

    private static func notice(title: String, body: String) -> Notice {
        Notice(kind: .mateOver(userID: UserID("bo234567")), day: day, title: title, body: body)
    }

    // MARK: Generators

    private static let ordinaryPieces = [
        "bo", "ana_2", " went over the limit", "9 of 8 blocks", "a", "Z", "0", "4", " ", "~", "[", "]", "\\", ":",
        "漢字", "한", "😀", "👨‍👩‍👧", "e\u{301}", "é",
        // UTF-8 bytes 0x9B and 0x9C (CSI and ST for a terminal that reads 8-bit controls).
        "Û", "Ŝ",
    ]

    private static let hostilePieces = [
        // C0, including ESC and BEL, which end an OSC; a whole sequence; line breaks.
        "\u{0}", "\u{7}", "\u{8}", "\t", "\n", "\r", "\u{1B}", "\u{1B}\\", "\u{1B}[2J", "\u{1B}]0;pwned\u{7}",
        "\u{1B}]777;notify;fake;text\u{1B}\\", "\u{1B}P", "\u{1F}",
        // DEL and C1: CSI, ST, OSC, DCS, NEL.
        "\u{7F}", "\u{80}", "\u{85}", "\u{90}", "\u{9B}", "\u{9B}31m", "\u{9C}", "\u{9D}0;x", "\u{9F}",
        // Field separators of the sequences themselves.
        ";", "4;3;100", "9;",
        // Bidi overrides, embeddings and isolates; zero-width and other invisible characters.
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{61C}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{AD}",
        "\u{E0041}", "\u{2028}", "\u{2029}",
    ]

    private static let textGen = Gen<String?>.element(of: ordinaryPieces + hostilePieces).map { $0! }
        .array(of: 0...12).map { $0.joined() }

    // MARK: Checks

    /// Whether a scalar must never be written inside a sequence.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || scalar.properties.generalCategory == .format
            || value == 0x2028 || value == 0x2029
    }

    /// The payloads of the two sequences, when `output` is exactly `ESC ] 777;notify; … ESC \`
    /// followed by `ESC ] 9; … ESC \`; nil when anything else is there (a payload holding an ESC
    /// would end its sequence early, and what follows would not be framing).
    private static func payloads(_ output: String) -> (osc777: String, osc9: String)? {
        var rest = Substring(output)
        func take(sequence prefix: String) -> String? {
            guard rest.hasPrefix(prefix) else { return nil }
            rest = rest.dropFirst(prefix.count)
            guard let end = rest.unicodeScalars.firstIndex(of: "\u{1B}") else { return nil }
            let payload = String(rest.unicodeScalars[..<end])
            rest = Substring(rest.unicodeScalars[end...])
            guard rest.hasPrefix("\u{1B}\\") else { return nil }
            rest = rest.dropFirst(2)
            return payload
        }
        guard let osc777 = take(sequence: "\u{1B}]777;notify;"), let osc9 = take(sequence: "\u{1B}]9;"), rest.isEmpty
        else { return nil }
        return (osc777, osc9)
    }

    /// The visible ASCII of `text` as a field shows it (";" becomes ","), in order.
    private static func visibleASCII(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { (0x21...0x7E).contains($0.value) }.map { $0 == ";" ? "," : $0 }
    }

    /// The two fields of OSC 777 (title and body) when the output is well framed and has no
    /// field more, with OSC 9 holding the same text; records an issue and returns nil otherwise.
    private static func fields(of output: String) -> (title: String, body: String)? {
        guard let (osc777, osc9) = payloads(output) else {
            Issue.record("not two well-framed sequences: \(output.debugDescription)")
            return nil
        }
        for payload in [osc777, osc9] {
            let bad = payload.unicodeScalars.filter(isForbidden)
            #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) }) in \(payload.debugDescription)")
        }
        // Title and body apart in OSC 777, and no field more; OSC 9 has no field separator at all.
        let fields = osc777.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        #expect(!osc9.contains(";"), "\(osc9.debugDescription)")
        guard fields.count == 2 else {
            Issue.record("OSC 777 has \(fields.count) fields instead of title and body: \(osc777.debugDescription)")
            return nil
        }
        #expect(osc9 == fields[0] + ": " + fields[1])
        return (fields[0], fields[1])
    }

    @Test func hostileTitlesAndBodiesNeverReachTheTerminalAsControls() async {
        await propertyCheck(count: 300, input: Self.textGen, Self.textGen) { title, body in
            let notice = Self.notice(title: title, body: body)
            let output = DesktopNotifier.sequences(for: notice, terminal: Self.osc)
            // Only the framing: four ESC (two introducers, two string terminators).
            let controls = output.unicodeScalars.filter(Self.isForbidden).map(\.value)
            #expect(controls == [0x1B, 0x1B, 0x1B, 0x1B], "\(output.debugDescription)")
            guard let fields = Self.fields(of: output) else { return }
            // The text is still there: what is visible of it, in order.
            #expect(Self.visibleASCII(fields.title) == Self.visibleASCII(title), "\(title.debugDescription)")
            #expect(Self.visibleASCII(fields.body) == Self.visibleASCII(body), "\(body.debugDescription)")

            // A terminal that is not UTF-8 may read bytes 0x80-0x9F of a UTF-8 character as 8-bit
            // controls: there, only ASCII is written, each other character shown as "?".
            let ascii = DesktopNotifier.sequences(for: notice, terminal: Self.osc, asciiOnly: true)
            let bytes = ascii.utf8.filter { !(0x20...0x7E).contains($0) }
            #expect(bytes == [0x1B, 0x1B, 0x1B, 0x1B], "\(ascii.debugDescription)")
            guard let asciiFields = Self.fields(of: ascii) else { return }
            let question: (Character) -> Character = { $0.isASCII ? $0 : "?" }
            #expect(asciiFields.title == String(fields.title.map(question)))
            #expect(asciiFields.body == String(fields.body.map(question)))
        }
    }

    @Test func examples() {
        let plain = DesktopNotifier.sequences(
            for: Self.notice(title: "bo went over the limit", body: "9 of 8 blocks"), terminal: Self.osc)
        #expect(
            plain
                == "\u{1B}]777;notify;bo went over the limit;9 of 8 blocks\u{1B}\\"
                + "\u{1B}]9;bo went over the limit: 9 of 8 blocks\u{1B}\\")
        let hostile = DesktopNotifier.sequences(
            for: Self.notice(title: "4;3;bo\u{1B}]0;pwned\u{7}\u{202E}x", body: "a\u{9C}b\u{9B}2J\nc"),
            terminal: Self.osc)
        #expect(
            hostile
                == "\u{1B}]777;notify;4,3,bo\u{FFFD}]0,pwned\u{FFFD}x;a\u{FFFD}b\u{FFFD}2J c\u{1B}\\"
                + "\u{1B}]9;4,3,bo\u{FFFD}]0,pwned\u{FFFD}x: a\u{FFFD}b\u{FFFD}2J c\u{1B}\\")
        let ascii = DesktopNotifier.sequences(
            for: Self.notice(title: "Ŝ漢 went over", body: "Û2J"), terminal: Self.osc, asciiOnly: true)
        #expect(ascii == "\u{1B}]777;notify;?? went over;?2J\u{1B}\\" + "\u{1B}]9;?? went over: ?2J\u{1B}\\")
    }

    // MARK: notify-send

    /// A directory holding a `notify-send` that runs `script` (`DIRECTORY` in it is the
    /// directory's path; the PATH it is given holds nothing else).
    private static func fakeNotifySend(_ script: String) throws -> String {
        let directory = NSTemporaryDirectory() + "screenmates-notify-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/notify-send"
        let text = "#!/bin/sh\n" + script.replacingOccurrences(of: "DIRECTORY", with: directory) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return directory
    }

    /// The session's tasks run `notify-send`, and the dashboard's loop goes on at once: a
    /// `notify-send` that never ends holds up neither the call nor the session's end, which
    /// stops it.
    @Test func notifySendRunsInTheSessionsTasksWithoutHoldingTheCallerUp() async throws {
        let directory = try Self.fakeNotifySend("exec /bin/sleep 3600")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tasks = BackgroundTasks()
        DesktopNotifier.notifySend(
            [Self.notice(title: "bo went over", body: "9 of 8 blocks")], in: tasks,
            environment: ["DISPLAY": ":99", "PATH": directory])
        #expect(tasks.count == 1)
        await tasks.finish()
        #expect(tasks.count == 0)
    }

    /// Each notice's plain title and body, with the app's name, in order; nothing without a
    /// desktop.
    @Test func notifySendIsGivenEachNoticesPlainText() async throws {
        let directory = try Self.fakeNotifySend("printf '%s|' \"$@\" >> DIRECTORY/said; echo >> DIRECTORY/said")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notices = [
            Self.notice(title: "bo went over", body: "9 of 8 blocks"),
            Self.notice(title: "evil\u{1B}[2J", body: "two"),
        ]
        let tasks = BackgroundTasks()
        DesktopNotifier.notifySend(notices, in: tasks, environment: ["PATH": directory])
        #expect(tasks.count == 0, "no desktop, no notify-send")
        DesktopNotifier.notifySend(
            notices, in: tasks, environment: ["WAYLAND_DISPLAY": "wayland-0", "PATH": directory])
        let expected =
            "--app-name=ScreenMates|bo went over|9 of 8 blocks|\n--app-name=ScreenMates|evil\u{FFFD}[2J|two|\n"
        var said = ""
        let deadline = ContinuousClock.now + .seconds(30)
        while said != expected && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            said = (try? String(contentsOfFile: directory + "/said", encoding: .utf8)) ?? ""
        }
        #expect(said == expected)
        await tasks.finish()
    }
}
