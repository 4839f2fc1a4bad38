import Foundation

/// `screenmates.1` written from what `screenmates --experimental-dump-help` says of its
/// commands (swift-argument-parser's own description of them), so the manual page shows the
/// same commands, options, defaults and help texts as `--help`.
///
/// The page is mdoc (`man 1 screenmates` with mandoc or groff). One rule it keeps: text from the
/// help never lands on a macro line unescaped, so a word like `No` or a line starting with a dot
/// cannot turn into a macro.
struct ManualPage {
    struct Tool: Decodable {
        var command: Command
    }

    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool?
        var defaultSubcommand: String?
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        var kind: String
        var shouldDisplay: Bool
        var isOptional: Bool
        var isRepeating: Bool
        var names: [Name]?
        var preferredName: Name?
        var valueName: String?
        var defaultValue: String?
        var allValues: [String]?
        var abstract: String?
        var discussion: String?
    }

    /// One screen of the dashboard's key table, as `screenmates dashboard --experimental-dump-keys`
    /// prints it (the table that also feeds the footer and the help screen).
    struct KeyScreen: Decodable {
        struct Binding: Decodable {
            var keys: [String]
            var summary: String
        }
        var screen: String
        var bindings: [Binding]
    }

    /// The page for the tool `dumpHelp` describes, with the KEYS of the key table `keys`, dated
    /// `date` (e.g. "November 24, 2026").
    static func render(dumpHelp: Data, keys: Data, date: String) throws -> String {
        let root = try JSONDecoder().decode(Tool.self, from: dumpHelp).command
        let name = root.commandName
        let global = Set((root.arguments ?? []).compactMap { $0.preferredName?.name })
        var page = [
            ".\\\" Written from `\(name) --experimental-dump-help` by Tests/ScreenMatesEndToEndTests/ManualPage.swift;",
            ".\\\" SCREENMATES_UPDATE_ASSETS=1 swift test --filter ShippedFilesTests writes it again.",
            ".Dd \(date)", ".Dt \(name.uppercased()) 1", ".Os", ".Sh NAME", ".Nm \(name)",
            ".Nd " + macroText(String((root.abstract ?? "").trimmingCharacters(in: CharacterSet(charactersIn: ".")))),
            ".Sh SYNOPSIS",
        ]
        page += synopsis(root, path: [], skipping: [])
        for command in displayed(root.subcommands) {
            page += synopsis(command, path: [command.commandName], skipping: global)
        }
        page += [".Sh DESCRIPTION"] + paragraphs(root.discussion)
        if let defaultCommand = root.defaultSubcommand {
            page += ["Without a subcommand,", ".Nm", "runs", ".Cm \(defaultCommand) ."]
        }
        page += [".Pp"] + textLine(description)
        page += [".Sh OPTIONS"] + argumentList(root.arguments, skipping: [])
        page += [".Sh COMMANDS"]
        for command in displayed(root.subcommands) {
            page += section(command, path: [command.commandName], global: global)
        }
        page += keysSection(try JSONDecoder().decode([KeyScreen].self, from: keys))
        page += [".Sh ENVIRONMENT", ".Bl -tag -width Ds"]
        for variable in environment { page += [".It Ev " + variable.name] + mdocLines(variable.text) }
        page += [".El", ".Sh FILES", ".Bl -tag -width Ds"]
        for file in files { page += [".It Pa " + file.path] + mdocLines(file.text) }
        page += [".El", ".Sh EXIT STATUS", ".Bl -tag -width Ds -compact"]
        for (status, meaning) in exitStatuses { page += [".It \(status)"] + textLine(meaning) }
        page += [".El", ".Sh EXAMPLES"]
        for (index, example) in examples.enumerated() {
            page += (index > 0 ? [".Pp"] : []) + textLine(example.what) + [".Dl " + macroText(example.command)]
        }
        page += [
            ".Sh SEE ALSO", ".Xr screenmates 5 ,", ".Xr screenmates-games 7 ,", ".Xr screenmates-groups 7 ,",
            ".Xr screenmates-monitor 7",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// What the page says after the tool's own discussion: how the parts fit, in a paragraph.
    static let description = """
        The dashboard reads the local database in the data directory (see screenmates(5)); a usage monitor \
        (screenmates monitor, see screenmates-monitor(7)) writes it; groups share a live leaderboard through a \
        group store, a SQLite file on one host or a PostgreSQL server (see screenmates-groups(7)). \
        --speed N runs the app clock N times faster and --start-at starts it at a chosen instant, so midnight, \
        thresholds and streaks can be watched in minutes. A clock never goes back into a home's past: a \
        --start-at before the data a home holds is refused with exit status 64, naming the home and the ways \
        out. Without --home, a demo and any run on a simulated clock use the demo directory inside the data \
        directory, and a demo there starts afresh on every run.
        """

    /// Every environment variable the program reads, with what it does (mdoc lines). The
    /// desktop's variables are on screenmates-monitor(7) and PostgreSQL's on
    /// screenmates-groups(7); `DocumentedFactsTests` checks that every variable the sources read is
    /// named on one of the pages.
    static let environment: [(name: String, text: [String])] = [
        ("SCREENMATES_HOME", ["The data directory, when", ".Fl -home", "is not given."]),
        (
            "XDG_DATA_HOME , HOME",
            [
                "Without either of those, the data directory is", ".Pa $XDG_DATA_HOME/screenmates ,",
                "else", ".Pa $HOME/.local/share/screenmates .",
            ]
        ),
        ("SCREENMATES_GROUP_STORE", ["The group store, when", ".Fl -group-store", "is not given."]),
        (
            "SCREENMATES_ASSETS",
            [
                "The assets directory (app catalogue, themes, scenarios). Without it, the first of",
                ".Pa ../share/screenmates/assets", "or", ".Pa ../share/screenmates",
                "next to the executable,", ".Pa ~/.local/share/screenmates/assets", "(or under",
                ".Ev XDG_DATA_HOME )", "and", ".Pa /usr/share/screenmates", "that holds an", ".Pa apps.json .",
            ]
        ),
        (
            "SCREENMATES_LOG_LEVEL",
            [
                "How much", ".Pa screenmates.log", "holds:", ".Cm trace , debug , info", "(the default),",
                ".Cm notice , warning , error", "or", ".Cm critical .",
            ]
        ),
        (
            "SCREENMATES_BUSY_TIMEOUT",
            ["Seconds a write to the local database waits for another process's write (0.01\\(en600)."]
        ),
        (
            "SCREENMATES_GROUP_BUSY_TIMEOUT",
            ["Seconds a write to a shared group-store file waits for another program's lock (0.01\\(en600, default 5)."]
        ),
        (
            "SCREENMATES_ACTIVITYWATCH_URL",
            ["ActivityWatch's server for", ".Cm monitor", "and", ".Cm import ,", "when", ".Fl -url", "is not given."]
        ),
        ("NO_COLOR", ["When set and not empty, no colours, as", ".Fl -no-color ."]),
        (
            "TERM",
            ["The terminal's type, for", ".Xr ncurses 3X ;", "without one the dashboard cannot start."]
        ),
        (
            "TERM_PROGRAM , KITTY_WINDOW_ID , VTE_VERSION , WT_SESSION , ConEmuPID , WEZTERM_PANE , GHOSTTY_RESOURCES_DIR , LC_TERMINAL",
            [
                "Which terminal runs the dashboard, so", ".Fl -desktop-notify",
                "writes only an escape sequence it understands (kitty's OSC 99, else OSC 777 and OSC 9).",
            ]
        ),
        (
            "TMUX",
            [
                "Inside tmux, the terminal is the one tmux's client runs in, asked of tmux; see also",
                ".Xr screenmates-monitor 7 .",
            ]
        ),
        (
            "DISPLAY , WAYLAND_DISPLAY",
            [
                "A desktop session, where", ".Xr notify-send 1", "is tried; see", ".Xr screenmates-monitor 7",
                "for the monitor's.",
            ]
        ),
        ("PATH", ["Where", ".Xr notify-send 1", "and", ".Xr tmux 1", "are looked for."]),
        ("TZ", ["The time zone days are counted in (the machine's when unset)."]),
        ("LANG , LC_ALL , LC_CTYPE", ["Where the locale is not UTF-8, the dashboard draws with ASCII only."]),
        (
            "PGPASSWORD , PGPASSFILE , USER",
            ["A PostgreSQL group store's password, password file and default login; see", ".Xr screenmates-groups 7 ."]
        ),
    ]

    /// The files the program uses (mdoc lines); screenmates(5) says what is in them.
    static let files: [(path: String, text: [String])] = [
        ("~/.local/share/screenmates/", ["The data directory (see", ".Xr screenmates 5 ) ."]),
        ("DATA/local.sqlite", ["The local database: usage events, settings, history, notices, games."]),
        ("DATA/config.toml", ["The settings, readable and editable."]),
        ("DATA/member-identity", ["The user id and member secret; keep a copy."]),
        ("DATA/screenmates.log", ["The log."]),
        ("DATA/group-store.sqlite", ["The default group store, a shared SQLite file."]),
        ("DATA/demo/", ["The demo's own data directory."]),
        (
            "/usr/share/screenmates/",
            [
                "The app catalogue", ".Pq Pa apps.json ,",
                "themes, scenarios, the GNOME Shell extension and the KWin script.",
            ]
        ),
        ("/usr/lib/systemd/user/screenmates-monitor.service", ["The monitor as a systemd user service."]),
    ]

    /// What each exit status means.
    static let exitStatuses: [(Int, String)] = [
        (0, "The command did what was asked."),
        (
            1,
            "A request could not be carried out: a group that refuses, a store out of reach, a home that is not set up."
        ),
        (64, "The command line itself is wrong (a bad value, an unknown option, a --start-at before the home's data)."),
        (
            70,
            "From sync and group prepare-store: the group store refuses in a way someone must fix (a login refused, a schema of a newer version)."
        ),
        (129, "The dashboard, the monitor or sync --watch stopped cleanly after SIGHUP."),
        (130, "The same after SIGINT (Ctrl-C)."),
        (143, "The same after SIGTERM (systemctl stop); the monitor's service counts it as a clean stop."),
    ]

    /// Examples, each checked by `DocumentedFactsTests` against the commands and options the
    /// binary has.
    static let examples: [(what: String, command: String)] = [
        ("The dashboard, on your own data:", "screenmates"),
        (
            "A demo with five simulated group-mates, the clock 120 times faster:",
            "screenmates dashboard --demo --speed 120"
        ),
        (
            "The thresholds and the reset in five minutes:",
            "screenmates dashboard --demo --scenario evening-binge --speed 60 --start-at 2026-11-21T18:00"
        ),
        ("Set up from a script:", "screenmates setup --name ana --vice TikTok --vice YouTube --productive Kindle"),
        ("Create a group and share its code, or join one:", "screenmates group create --goal 8"),
        ("", "screenmates group join K7Q2XM"),
        ("Follow the desktop, ActivityWatch or the terminal:", "screenmates monitor"),
        ("Today's numbers for a script:", "screenmates status --json"),
        ("The last 30 days as JSON:", "screenmates export --format json --days 30 --output last-month.json"),
        ("A challenge for a week, with coins at stake:", "screenmates challenge create --at-most 2 --days 7"),
        ("Change a setting:", "screenmates config set day_start_hour 4"),
    ]

    /// KEYS: the key table, screen by screen, and the keys the terminal itself handles.
    private static func keysSection(_ screens: [KeyScreen]) -> [String] {
        let titles = [
            "dashboard": "The dashboard", "help": "The help screen", "group": "The group screen",
            "notices": "The notices log", "debug": "The debug panel", "history": "The history screen",
            "settings": "The settings screen",
        ]
        var lines = [
            ".Sh KEYS",
            "The dashboard's keys, from the one key table that also draws its footer and its help screen",
            ".Pq Ic \\&? .",
        ]
        for screen in screens where !screen.bindings.isEmpty {
            lines += [
                ".Ss " + macroText(titles[screen.screen] ?? "The \(screen.screen) screen"),
                ".Bl -tag -width \"shift-tab\" -compact",
            ]
            for binding in screen.bindings {
                lines.append(".It " + binding.keys.map { "Ic " + macroWord($0) }.joined(separator: " , "))
                lines += textLine(binding.summary)
            }
            lines.append(".El")
        }
        lines += [
            ".Pp",
            "The challenges, coins and weeks screens", ".Pq Ic c , p , w",
            "and the first-run screens show their own keys.",
            ".Ic ctrl-z",
            "suspends and", ".Ic fg", "resumes and redraws;", ".Ic ctrl-c",
            "quits. The terminal is restored on quit, Ctrl-C, SIGTERM, SIGHUP and a crash.",
        ]
        return mdocLines(lines)
    }

    /// The subcommands shown in help, without `help` itself.
    private static func displayed(_ commands: [Command]?) -> [Command] {
        (commands ?? []).filter { ($0.shouldDisplay ?? true) && $0.commandName != "help" }
    }

    /// `Nm name sub` and its arguments, one `.Nm` block per command that runs something.
    private static func synopsis(_ command: Command, path: [String], skipping: Set<String>) -> [String] {
        let children = displayed(command.subcommands)
        if !children.isEmpty && !path.isEmpty {
            return children.flatMap { synopsis($0, path: path + [$0.commandName], skipping: skipping) }
        }
        var lines = [".Nm"] + (path.isEmpty ? [] : [".Cm " + path.map(macroWord).joined(separator: " ")])
        for argument in (command.arguments ?? []) where shows(argument, skipping: skipping) {
            lines.append(argument.isOptional ? ".Op " + usage(argument) : "." + usage(argument))
        }
        return lines
    }

    /// `.Ss group create`, its abstract and discussion, and its arguments.
    private static func section(_ command: Command, path: [String], global: Set<String>) -> [String] {
        var lines = [".Ss " + path.map(macroWord).joined(separator: " ")]
        lines += paragraphs(command.abstract) + paragraphs(command.discussion)
        let arguments = (command.arguments ?? []).filter { shows($0, skipping: global) }
        if !arguments.isEmpty { lines += argumentList(arguments, skipping: global) }
        for child in displayed(command.subcommands) {
            lines += section(child, path: path + [child.commandName], global: global)
        }
        return lines
    }

    private static func argumentList(_ arguments: [Argument]?, skipping: Set<String>) -> [String] {
        var lines = [".Bl -tag -width Ds"]
        for argument in (arguments ?? []) where shows(argument, skipping: skipping) {
            lines.append(".It " + usage(argument, allNames: true))
            var text = paragraphs(argument.abstract) + paragraphs(argument.discussion)
            if let values = argument.allValues, !values.isEmpty {
                text += textLine("One of: \(values.joined(separator: ", ")).")
            }
            if let value = argument.defaultValue, argument.kind != "flag" {
                text += textLine("Default: \(value).")
            }
            lines += text
        }
        return lines + [".El"]
    }

    /// Whether an argument is listed: shown in help, and not one of the tool's own options
    /// (`--home`, `--help`…), which are listed once, under the tool itself.
    private static func shows(_ argument: Argument, skipping: Set<String>) -> Bool {
        guard argument.shouldDisplay, let name = argument.preferredName?.name ?? argument.valueName else {
            return false
        }
        return !skipping.contains(name)
    }

    /// `Fl -seed Ar n`, `Ar code`, `Fl -vice Ar app ...`: the argument as mdoc macros.
    private static func usage(_ argument: Argument, allNames: Bool = false) -> String {
        let value = macroWord(argument.valueName ?? "value")
        if argument.kind == "positional" { return "Ar " + value + (argument.isRepeating ? " ..." : "") }
        let names = (argument.names ?? []).map { name in
            "Fl " + (name.kind == "long" ? "-" : "") + macroWord(name.name)
        }
        var text = allNames ? names.joined(separator: " , ") : (names.first ?? "")
        if argument.kind == "option" { text += " Ar " + value + (argument.isRepeating ? " ..." : "") }
        return text
    }

    /// Help text as text lines: paragraphs become `.Pp`, and no line can start a macro.
    private static func paragraphs(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        let blocks = text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        return blocks.enumerated().flatMap { index, block in
            (index > 0 ? [".Pp"] : []) + textLine(block)
        }
    }

    /// Text as text lines, as mandoc's lint wants them: each sentence on a line of its own, no
    /// line longer than 80 bytes, and none that could start a macro.
    private static func textLine(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).flatMap { line in
            wrapped(escape(String(line)))
        }
    }

    /// mdoc lines written here: macro lines as they are, text lines as `textLine` lays them out
    /// (they are mdoc already, so not escaped again).
    private static func mdocLines(_ lines: [String]) -> [String] {
        lines.flatMap { $0.hasPrefix(".") ? [$0] : wrapped($0) }
    }

    /// `text` one sentence a line, each wrapped at a space to at most 80 bytes.
    private static func wrapped(_ text: String) -> [String] {
        let sentences = text.replacingOccurrences(
            of: #"([.!?]) +(?=[A-Z(\\])"#, with: "$1\n", options: .regularExpression)
        var lines: [String] = []
        for sentence in sentences.split(separator: "\n") {
            var current = ""
            for word in sentence.split(separator: " ") {
                if !current.isEmpty && current.utf8.count + 1 + word.utf8.count > 78 {
                    lines.append(current)
                    current = String(word)
                } else {
                    current += (current.isEmpty ? "" : " ") + word
                }
            }
            if !current.isEmpty { lines.append(current) }
        }
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }
    }

    /// Backslashes as `\e`, and every character beyond ASCII as its code point (`\[u2014]`),
    /// which groff and mandoc both read whatever the locale.
    private static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result += "\\e"
            } else if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return result
    }

    /// Text on a macro line, each word that could be read as a macro (`No`, `Op`, `Ar`…) escaped.
    private static func macroText(_ text: String) -> String {
        text.split(separator: " ").map { macroWord(String($0)) }.joined(separator: " ")
    }

    private static func macroWord(_ word: String) -> String {
        let escaped = escape(word)
        let looksLikeMacro =
            (2...3).contains(escaped.count) && escaped.first?.isUppercase == true
            && escaped.dropFirst().allSatisfy(\.isLowercase)
        let delimiter = escaped.count == 1 && ".,:;()[]?!|".contains(escaped)
        return looksLikeMacro || delimiter || escaped.hasPrefix("\"") ? "\\&" + escaped : escaped
    }
}
