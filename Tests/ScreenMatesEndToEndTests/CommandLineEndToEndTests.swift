import Foundation
import Testing

/// The command line without a screen: errors are clear and exit non-zero.
@Suite struct CommandLineEndToEndTests {
    @Test func withoutATerminalTheDashboardExplainsAndExits() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "ana"])
        let result = try Binary.run(["--home", home.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("needs a terminal"), "\(result.stderr)")
        #expect(result.stderr.contains("screenmates status"))
    }

    @Test func withoutTERMTheDashboardExplainsAndExits() throws {
        let home = Binary.Home()
        _ = try Binary.run(["setup", "--home", home.path, "--name", "ana"])
        let tmux = try Tmux()
        try tmux.type("env -u TERM \(Binary.path) --home \(home.path); echo EX\"\"IT=$?")
        let screen = try tmux.waitFor("EXIT=")
        #expect(screen.contains("TERM"), "\(screen)")
        #expect(!screen.contains("EXIT=0"), "\(screen)")
        try tmux.type("TERM=no-such-terminal \(Binary.path) --home \(home.path); echo STA\"\"TUS=$?")
        let unknown = try tmux.waitFor("STATUS=")
        #expect(unknown.contains("no-such-terminal"), "\(unknown)")
        #expect(!unknown.contains("STATUS=0"), "\(unknown)")
    }

    @Test func globalOptionsWorkBeforeAndAfterTheSubcommand() throws {
        let home = Binary.Home()
        #expect(try Binary.run(["--home", home.path, "setup", "--name", "ana"]).status == 0)
        let before = try Binary.run(["--home", home.path, "status", "--json"])
        let after = try Binary.run(["status", "--json", "--home", home.path])
        #expect(before.status == 0 && after.status == 0)
        #expect(before.stdout.contains("\"ana\""))
        #expect(after.stdout.contains("\"ana\""))
    }

    @Test func theHomeComesFromTheEnvironmentWhenNotGiven() throws {
        let home = Binary.Home()
        let result = try Binary.run(["setup", "--name", "ana"], environment: ["SCREENMATES_HOME": home.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/local.sqlite"))
    }

    @Test func badInputIsRefusedWithAReasonAndChangesNothing() throws {
        let home = Binary.Home()
        #expect(try Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let cases: [([String], String)] = [
            (["setup", "--name", "way_too_long_a_name_for_this"], "at most 20"),
            (["setup", "--name", "evil\u{1B}[2J"], "remove"),
            (["setup", "--name", "rtl\u{202E}name"], "U+202E"),
            (["setup", "--name", "ok", "--day-start-hour", "24"], "between 0 and 23"),
            (["dashboard", "--speed", "0"], "--speed"),
            (["dashboard", "--start-at", "yesterday"], "ISO 8601"),
            (["status", "--bogus"], "bogus"),
        ]
        for (arguments, expected) in cases {
            let result = try Binary.run(arguments + ["--home", home.path])
            #expect(result.status != 0, "\(arguments) should fail")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        let status = try Binary.run(["status", "--home", home.path, "--json"])
        #expect(status.stdout.contains("\"ana\""))
    }

    @Test func statusOnAnEmptyHomeSaysWhatToDo() throws {
        let home = Binary.Home()
        let result = try Binary.run(["status", "--home", home.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("screenmates setup"), "\(result.stderr)")
    }

    @Test func aDamagedDatabaseIsNamedWithTheWayOutAndKept() throws {
        let home = Binary.Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let junk = Data(repeating: 0x5A, count: 4096)
        _ = FileManager.default.createFile(atPath: home.path + "/local.sqlite", contents: junk)
        let result = try Binary.run(["status", "--home", home.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(home.path + "/local.sqlite"), "\(result.stderr)")
        #expect(result.stderr.contains("recover"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: home.path + "/local.sqlite") == junk)
    }

    @Test func helpAndVersion() throws {
        let help = try Binary.run(["--help"])
        #expect(help.status == 0)
        for word in ["dashboard", "setup", "status"] { #expect(help.stdout.contains(word)) }
        let version = try Binary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}
