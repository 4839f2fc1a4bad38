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

    /// The page for the tool `dumpHelp` describes, dated `date` (e.g. "November 24, 2026").
    static func render(dumpHelp: Data, date: String) throws -> String {
        let root = try JSONDecoder().decode(Tool.self, from: dumpHelp).command
        let name = root.commandName
        let global = Set((root.arguments ?? []).compactMap { $0.preferredName?.name })
        var page = [
            ".\\\" Written from `\(name) --experimental-dump-help` by Tests/ScreenMatesEndToEndTests/ManualPage.swift;",
            ".\\\" SCREENMATES_UPDATE_ASSETS=1 swift test --filter ShippedFilesTests writes it again.",
            ".Dd \(date)", ".Dt \(name.uppercased()) 1", ".Os", ".Sh NAME", ".Nm \(name)",
            ".Nd " + macroText(root.abstract ?? ""), ".Sh SYNOPSIS",
        ]
        page += synopsis(root, path: [], skipping: [])
        for command in displayed(root.subcommands) {
            page += synopsis(command, path: [command.commandName], skipping: global)
        }
        page += [".Sh DESCRIPTION"] + paragraphs(root.discussion)
        if let defaultCommand = root.defaultSubcommand {
            page += ["Without a subcommand,", ".Nm", "runs", ".Cm \(defaultCommand) ."]
        }
        page += [".Sh OPTIONS"] + argumentList(root.arguments, skipping: [])
        page += [".Sh COMMANDS"]
        for command in displayed(root.subcommands) {
            page += section(command, path: [command.commandName], global: global)
        }
        page += [
            ".Sh EXIT STATUS",
            "0 when the command did what was asked; 1 when a request could not be carried out (a group that refuses,",
            "a store out of reach, a home that is not set up); 64 when the command line itself is wrong;",
            "70 from sync and group prepare-store when the group store refuses in a way someone must fix (a login",
            "refused, a schema of a newer version).",
            "The dashboard and the monitor exit with 130 after SIGINT and 143 after SIGTERM once they have stopped cleanly.",
            ".Sh ENVIRONMENT", ".Bl -tag -width Ds",
            ".It Ev SCREENMATES_GROUP_STORE", "The group store, as for", ".Fl -group-store .",
            ".It Ev SCREENMATES_ASSETS",
            "The assets directory (app catalogue, themes, scenarios). Without it, the first of",
            ".Pa ../share/screenmates/assets", "or", ".Pa ../share/screenmates",
            "next to the executable,", ".Pa ~/.local/share/screenmates/assets", "(or under",
            ".Ev XDG_DATA_HOME )", "and", ".Pa /usr/share/screenmates", "that holds an", ".Pa apps.json .",
            ".It Ev NO_COLOR", "When set and not empty, no colours.",
            ".It Ev PGPASSWORD", "The password for a", ".Li postgres://",
            "group store whose URL has none; without it, the matching line of", ".Pa ~/.pgpass .",
            ".It Ev PGPASSFILE", "The password file to read instead of", ".Pa ~/.pgpass ;",
            "as with libpq, it is ignored unless only its owner may read it.", ".El",
        ]
        return page.joined(separator: "\n") + "\n"
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

    private static func textLine(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            let escaped = escape(String(line))
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }
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
        return looksLikeMacro || escaped.hasPrefix("\"") ? "\\&" + escaped : escaped
    }
}
