import Foundation
import ScreenMatesCore
import Testing

/// One source for each fact: what the README and the manual pages say of the command line and
/// the environment is what the built binary has. A test fails when a page names a command, an
/// option or an environment variable the binary does not have, or when the binary reads an
/// environment variable no manual page names.
@Suite struct DocumentedFactsTests {
    static let root = ShippedFilesTests.assets.deletingLastPathComponent()
    static let handWrittenPages = ShippedFilesTests.manualPages.filter { $0 != "screenmates.1" }

    /// Every command path (`group join`) the binary has, with the options each takes.
    struct CommandLine {
        struct Command {
            var options: Set<String> = ["-h", "--help"]
            /// The options that take a value (so the next word is that value, not a command).
            var valued: Set<String> = []
            var takesPositionals = false
        }

        var commands: [[String]: Command] = [:]
        var allOptions: Set<String> = []
        var defaultCommand: [String] = []

        init(dumpHelp: Data) throws {
            let tool = try JSONDecoder().decode(ManualPage.Tool.self, from: dumpHelp).command
            add(tool, path: [])
            if let name = tool.defaultSubcommand { defaultCommand = [name] }
        }

        private mutating func add(_ command: ManualPage.Command, path: [String]) {
            var entry = Command()
            for argument in command.arguments ?? [] {
                if argument.kind == "positional" { entry.takesPositionals = true }
                for name in argument.names ?? [] {
                    let spelled = (name.kind == "long" ? "--" : "-") + name.name
                    entry.options.insert(spelled)
                    allOptions.insert(spelled)
                    if argument.kind == "option" { entry.valued.insert(spelled) }
                }
            }
            // ArgumentParser's own, which its description of the tool leaves out.
            if path.isEmpty {
                entry.options.formUnion(["--version", "--generate-completion-script", "--experimental-dump-help"])
                entry.valued.insert("--generate-completion-script")
            }
            commands[path] = entry
            for child in command.subcommands ?? [] { add(child, path: path + [child.commandName]) }
        }

        /// What is wrong with `screenmates WORDS…`: an unknown command or option.
        func problems(with words: [String]) -> [String] {
            var path: [String] = []
            var options: [String] = []
            var positionals: [String] = []
            var index = 0
            while index < words.count {
                let word = words[index]
                if word.hasPrefix("-") {
                    let option = String(word.split(separator: "=", maxSplits: 1)[0])
                    options.append(option)
                    let valued = commands[path]?.valued ?? []
                    if valued.contains(option) && !word.contains("=") { index += 1 }
                } else if positionals.isEmpty, commands[path + [word]] != nil {
                    path.append(word)
                } else {
                    positionals.append(word)
                }
                index += 1
            }
            let invocation = "screenmates " + words.joined(separator: " ")
            var found: [String] = []
            var valid = commands[path]?.options ?? []
            if path.isEmpty { valid.formUnion(commands[defaultCommand]?.options ?? []) }
            for option in options where !valid.contains(option) {
                found.append(
                    "\(invocation): \(path.isEmpty ? "screenmates" : path.joined(separator: " ")) has no \(option)")
            }
            // A word shaped like a command where no argument is taken is a command the binary lacks.
            let commandLike = positionals.first { $0.range(of: "^[a-z][a-z-]*$", options: .regularExpression) != nil }
            if let word = commandLike, !(commands[path]?.takesPositionals ?? false) {
                let under = path.isEmpty ? "screenmates" : "screenmates " + path.joined(separator: " ")
                found.append("\(invocation): \(under) has no command \(word)")
            }
            return found
        }
    }

    static func commandLine() async throws -> CommandLine {
        let dump = try await Binary.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        return try CommandLine(dumpHelp: Data(dump.stdout.utf8))
    }

    static func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The words after each `screenmates` that runs the program in `line` (a line of code: a
    /// fenced block's, an inline span's, a manual page's literal display), up to the end of
    /// the shell command; nothing for `screenmates` as part of a path or a name.
    static func invocations(in line: String) -> [[String]] {
        var text = line
        if let comment = text.range(of: #"(^|\s)#"#, options: .regularExpression) {
            text = String(text[..<comment.lowerBound])
        }
        var found: [[String]] = []
        let pattern = try! NSRegularExpression(pattern: #"(?:^|[\s/(])screenmates(?=\s|$)"#)
        let range = NSRange(text.startIndex..., in: text)
        for match in pattern.matches(in: text, range: range) {
            let rest = text[Range(match.range, in: text)!.upperBound...]
            var words: [String] = []
            for raw in rest.split(separator: " ") {
                let word = raw.trimmingCharacters(in: CharacterSet(charactersIn: "'\"`[]()"))
                if ["&&", "||", ";", "|", "\\"].contains(String(raw)) || raw.hasPrefix(">") || raw.hasPrefix("2>") {
                    break
                }
                if !word.isEmpty { words.append(word) }
            }
            found.append(words)
        }
        return found
    }

    /// The README's code: its fenced blocks' lines and its inline code spans.
    static func readmeCode() throws -> [String] {
        var lines: [String] = []
        var fenced: Substring?
        for line in try read("README.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced = fenced == nil ? line.dropFirst(3) : nil
                continue
            }
            if let language = fenced {
                // Shell only: a ```text block shows what a command printed.
                if ["sh", "shell", "bash", "console", ""].contains(language) { lines.append(String(line)) }
                continue
            }
            let spans = line.split(separator: "`", omittingEmptySubsequences: false)
            lines += spans.enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        return lines
    }

    /// A manual page's commands: its `.Ql` and `.Dl` lines and literal displays, as text (a
    /// continued line joined to the next).
    static func pageCode(_ page: String) -> [String] {
        var lines: [String] = []
        var literal = false
        var pending = ""
        for raw in page.split(separator: "\n") {
            var line = String(raw)
            if line.hasPrefix(".Bd") && line.contains("-literal") {
                literal = true
                continue
            }
            if line.hasPrefix(".Ed") {
                literal = false
                continue
            }
            if line.hasPrefix(".Ql ") || line.hasPrefix(".Dl ") {
                line = String(line.dropFirst(4))
            } else if !literal {
                continue
            }
            line = unescape(line)
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            lines.append(pending + line)
            pending = ""
        }
        return lines
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\e", with: "\\").replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\(dq", with: "\"").replacingOccurrences(of: "\\&", with: "")
            .replacingOccurrences(of: "\\(md", with: "-").replacingOccurrences(of: "\\(em", with: "-")
    }

    /// The long options a hand-written page names with `.Fl` (`.Fl -seed , -rate` names two).
    static func flagOptions(_ page: String) -> [String] {
        var options: [String] = []
        for line in page.split(separator: "\n") where line.hasPrefix(".") {
            let words = line.split(separator: " ").map(String.init)
            var inFlag = false
            for word in words {
                if word == "Fl" || word == ".Fl" {
                    inFlag = true
                } else if inFlag && word.hasPrefix("-") && word.count > 1 {
                    options.append("-" + word)
                } else if inFlag && word != "," && word != "|" {
                    inFlag = false
                }
            }
        }
        return options
    }

    @Test func theREADMENamesOnlyCommandsAndOptionsTheBinaryHas() async throws {
        let commandLine = try await Self.commandLine()
        var problems: [String] = []
        var checked = 0
        for line in try Self.readmeCode() {
            for words in Self.invocations(in: line) {
                checked += 1
                problems += commandLine.problems(with: words)
            }
        }
        #expect(checked >= 10, "the README shows the commands it leads to")
        #expect(problems.isEmpty, "README.md:\n\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: handWrittenPages)
    func aManualPageNamesOnlyCommandsAndOptionsTheBinaryHas(_ name: String) async throws {
        let commandLine = try await Self.commandLine()
        let page = try Self.read("assets/" + name)
        var problems: [String] = []
        for line in Self.pageCode(page) {
            for words in Self.invocations(in: line) { problems += commandLine.problems(with: words) }
        }
        for option in Self.flagOptions(page) where !commandLine.allOptions.contains(option) {
            problems.append("no command has \(option)")
        }
        #expect(problems.isEmpty, "\(name):\n\(problems.joined(separator: "\n"))")
    }

    /// The section-1 page's EXAMPLES, written from `ManualPage.examples`.
    @Test func theExamplesUseCommandsAndOptionsTheBinaryHas() async throws {
        let commandLine = try await Self.commandLine()
        var problems: [String] = []
        for example in ManualPage.examples {
            for words in Self.invocations(in: example.command) { problems += commandLine.problems(with: words) }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The environment variables the program reads: every `environment["NAME"]`, `getenv("NAME")`
    /// and `isSet("NAME")` in the sources of the targets linked into `screenmates` (not the
    /// benchmark's), and the names of a list looked up one by one (`environment[$0]`).
    static func variablesTheBinaryReads() throws -> Set<String> {
        let sources = root.appendingPathComponent("Sources")
        var names: Set<String> = []
        let direct = try NSRegularExpression(
            pattern: #"(?:environment\[|getenv\(|isSet\()\s*"([A-Za-z_][A-Za-z0-9_]*)""#)
        let literal = try NSRegularExpression(pattern: #""([A-Za-z_][A-Za-z0-9_]{2,})""#)
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", !file.path.contains("/ScreenMatesBench/") else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
            for (index, line) in lines.enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                for match in direct.matches(in: line, range: range) {
                    names.insert(String(line[Range(match.range(at: 1), in: line)!]))
                }
                // `markers.contains(where: { environment[$0] != nil })`: the names in `markers`.
                let lookup = try NSRegularExpression(pattern: #"(\w+)\.contains\(where: \{ environment\[\$0\]"#)
                guard let match = lookup.firstMatch(in: line, range: range) else { continue }
                let list = String(line[Range(match.range(at: 1), in: line)!])
                let declaration = try NSRegularExpression(pattern: "let \(list) = \\[([^\\]]*)\\]")
                for looked in lines[max(index - 5, 0)...index] {
                    let range = NSRange(looked.startIndex..., in: looked)
                    guard let declared = declaration.firstMatch(in: looked, range: range) else { continue }
                    let items = String(looked[Range(declared.range(at: 1), in: looked)!])
                    for item in literal.matches(in: items, range: NSRange(items.startIndex..., in: items)) {
                        names.insert(String(items[Range(item.range(at: 1), in: items)!]))
                    }
                }
            }
        }
        return names
    }

    /// The variables the manual pages name with `.Ev`.
    static func variablesThePagesName() throws -> Set<String> {
        var names: Set<String> = []
        for page in ShippedFilesTests.manualPages {
            for line in try read("assets/" + page).split(separator: "\n") where line.contains("Ev ") {
                let words = line.split(separator: " ").map(String.init)
                var inEv = false
                for word in words {
                    if word == "Ev" || word == ".Ev" {
                        inEv = true
                    } else if inEv, word.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil,
                        word.count > 2
                    {
                        names.insert(word)
                    } else if word != "," {
                        inEv = false
                    }
                }
            }
        }
        return names
    }

    /// Read by the C library and Foundation on the program's behalf, not by its own code.
    static let readByLibraries: Set<String> = ["TZ", "LANG", "LC_ALL", "LC_CTYPE"]

    @Test func everyVariableTheBinaryReadsIsOnAManualPage() throws {
        let read = try Self.variablesTheBinaryReads()
        for known in ["SCREENMATES_HOME", "SCREENMATES_GROUP_STORE", "SCREENMATES_LOG_LEVEL", "NO_COLOR", "PGPASSWORD"]
        {
            #expect(read.contains(known), "the scan of the sources finds \(known)")
        }
        let named = try Self.variablesThePagesName()
        let missing = read.subtracting(named).sorted()
        #expect(missing.isEmpty, "read by the binary, named on no manual page: \(missing)")
    }

    @Test func thePagesAndTheREADMENameOnlyVariablesThatAreRead() throws {
        let read = try Self.variablesTheBinaryReads().union(Self.readByLibraries)
        let unread = try Self.variablesThePagesName().subtracting(read).sorted()
        #expect(unread.isEmpty, "named on a manual page, read by nothing: \(unread)")
        // The README may also name what the tests and CI read (SCREENMATES_TEST_POSTGRES…).
        var developers = ""
        for folder in ["Tests", ".ci"] {
            let files = FileManager.default.enumerator(
                at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                if file.lastPathComponent == "DocumentedFactsTests.swift" { continue }
                developers += (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            }
        }
        let readme = try Self.read("README.md")
        let pattern = try NSRegularExpression(pattern: #"\bSCREENMATES_[A-Z0-9_]+\b"#)
        let named = Set(
            pattern.matches(in: readme, range: NSRange(readme.startIndex..., in: readme)).map {
                String(readme[Range($0.range, in: readme)!])
            })
        let unknown = named.filter { !read.contains($0) && !developers.contains($0) }.sorted()
        #expect(unknown.isEmpty, "README.md names variables nothing reads: \(unknown)")
    }

    /// The README's table of keys names only keys the key table binds (the one table the footer,
    /// the help screen and screenmates(1)'s KEYS come from), and the terminal's own.
    @Test func theREADMEsKeysAreTheKeyTables() async throws {
        let dump = try await Binary.run(["dashboard", "--experimental-dump-keys"])
        let screens = try JSONDecoder().decode([ManualPage.KeyScreen].self, from: Data(dump.stdout.utf8))
        let bound = Set(screens.flatMap { $0.bindings.flatMap(\.keys) }).union(["ctrl-c", "ctrl-z", "fg"])
        let readme = try Self.read("README.md")
        let section = try #require(readme.range(of: "## Keys")).upperBound
        let rows = readme[section...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        var keys: [String] = []
        for row in rows.dropFirst(2) {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 2 else { continue }
            // The keys: every code span of the row (the first cell's, and a screen's keys the second names).
            keys += row.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        #expect(keys.count >= 20, "the README's table of keys: \(keys)")
        let unbound = keys.filter { !bound.contains($0) }
        #expect(unbound.isEmpty, "README.md names keys the key table does not bind: \(unbound)")
    }

    /// screenmates(5) lists every key of config.toml and every key `status --json` prints.
    @Test func theFilesPageListsEveryConfigKeyAndStatusKey() async throws {
        let page = try Self.read("assets/screenmates.5")
        for key in ConfigKey.allCases {
            #expect(page.contains("Cm \(key.rawValue)"), "screenmates.5 lists the config key \(key.rawValue)")
        }
        let home = Binary.Home()
        let setup = try await Binary.run(["setup", "--name", "ana", "--home", home.path])
        #expect(setup.status == 0, "\(setup.stderr)")
        let status = try await Binary.run(["status", "--json", "--home", home.path])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status.stdout)")
        for key in object.keys {
            #expect(page.range(of: "\\b\(key)\\b", options: .regularExpression) != nil, "screenmates.5 lists \(key)")
        }
    }
}
