import Foundation
import ScreenMatesTestSupport
import Testing

/// The command line without a screen: errors are clear and exit non-zero.
@Suite struct CommandLineEndToEndTests {
    @Test func withoutATerminalTheDashboardExplainsAndExits() async throws {
        let home = Binary.Home()
        _ = try await Binary.run(["setup", "--home", home.path, "--name", "ana"])
        let result = try await Binary.run(["--home", home.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("needs a terminal"), "\(result.stderr)")
        #expect(result.stderr.contains("screenmates status"))
    }

    /// Without TERM, or with a TERM the terminfo database does not know, the dashboard says so
    /// itself (not ncurses' bare "Error opening terminal") and exits non-zero. It runs as the
    /// pane's own program, so the screen holds only what it printed.
    @Test func withoutTERMTheDashboardExplainsAndExits() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let unset = try await Tmux(unsetting: ["TERM"], running: [Binary.path, "--home", home.path])
        let ended = try await unset.waitForPane { $0.dead }
        let screen = try await unset.screen(everything: true)
        #expect(ended.dead && ended.exitStatus != 0, "\(ended)\n\(screen)")
        #expect(screen.contains("TERM") && screen.contains("not set"), "\(screen)")
        #expect(!screen.contains("Error opening terminal"), "\(screen)")

        let unknown = try await Tmux(
            environment: ["TERM": "no-such-terminal"], running: [Binary.path, "--home", home.path])
        let unknownEnded = try await unknown.waitForPane { $0.dead }
        let unknownScreen = try await unknown.screen(everything: true)
        #expect(unknownEnded.dead && unknownEnded.exitStatus != 0, "\(unknownEnded)\n\(unknownScreen)")
        #expect(
            unknownScreen.contains("\"no-such-terminal\"") && unknownScreen.contains("terminfo"), "\(unknownScreen)")
        #expect(!unknownScreen.contains("Error opening terminal"), "\(unknownScreen)")
        #expect(!unknownEnded.alternateOn, "\(unknownEnded)")
    }

    /// A terminal that cannot move the cursor (`TERM=dumb`, as in an editor's shell buffer) gets
    /// a message and exit status 1, like an unknown TERM, instead of a screen drawn unreadably.
    @Test func aTerminalThatCannotMoveTheCursorIsToldSo() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let dumb = try await Tmux(environment: ["TERM": "dumb"], running: [Binary.path, "--home", home.path])
        let ended = try await dumb.waitForPane { $0.dead }
        let screen = try await dumb.screen(everything: true)
        // Exit status 1 where tmux can tell it (under libfaketime it shows none).
        #expect(ended.dead && (ended.exitStatus ?? 1) == 1, "\(ended)\n\(screen)")
        #expect(screen.contains("\"dumb\"") && screen.contains("cannot move the cursor"), "\(screen)")
        #expect(screen.contains("screenmates status"), "\(screen)")
        #expect(!ended.alternateOn, "\(ended)")
    }

    @Test func globalOptionsWorkBeforeAndAfterTheSubcommand() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["--home", home.path, "setup", "--name", "ana"]).status == 0)
        let before = try await Binary.run(["--home", home.path, "status", "--json"])
        let after = try await Binary.run(["status", "--json", "--home", home.path])
        #expect(before.status == 0 && after.status == 0)
        #expect(before.stdout.contains("\"ana\""))
        #expect(after.stdout.contains("\"ana\""))

        // Before a nested subcommand too, in either spelling, and both of them.
        let store = home.path + "/shared-groups.sqlite"
        let created = try await Binary.run([
            "--home", home.path, "--group-store=\(store)", "group", "create", "--goal", "5",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(created.stdout.split(separator: " ").last.map { String($0.prefix(6)) })
        let shown = try await Binary.run(["group", "show", "--group-store", store, "--home=\(home.path)"])
        #expect(shown.status == 0 && shown.stdout.contains("Group \(code)"), "\(shown.stdout)\(shown.stderr)")
        #expect(FileManager.default.fileExists(atPath: store), "the store named before the subcommand is used")
    }

    @Test func theHomeComesFromTheEnvironmentWhenNotGiven() async throws {
        let home = Binary.Home()
        let result = try await Binary.run(["setup", "--name", "ana"], environment: ["SCREENMATES_HOME": home.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/local.sqlite"))
    }

    @Test func badInputIsRefusedWithAReasonAndChangesNothing() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let cases: [([String], String)] = [
            (["setup", "--name", "way_too_long_a_name_for_this"], "at most 20"),
            (["setup", "--name", "evil\u{1B}[2J"], "remove"),
            (["setup", "--name", "rtl\u{202E}name"], "U+202E"),
            (["setup", "--name", "ok", "--day-start-hour", "24"], "between 0 and 23"),
            (["dashboard", "--speed", "0"], "--speed"),
            (["dashboard", "--start-at", "yesterday"], "ISO 8601"),
            (["status", "--bogus"], "bogus"),
            // A negative number is a value out of range, not an option.
            (["dashboard", "--speed", "-1"], "--speed must be between"),
            (["monitor", "--count", "-3"], "--count must be at least 1"),
            (["monitor", "--rate", "-2"], "--rate takes a number"),
            (["setup", "--name", "ok", "--day-start-hour", "-1"], "between 0 and 23"),
            (["setup", "--name", "ok", "--goal", "-5"], "between 1 and 96"),
            (["group", "create", "--goal", "-1"], "1 to 96"),
            (["demo", "--members", "-2"], "between 1 and"),
            (["config", "set", "day_start_hour", "-1"], "out of range"),
        ]
        for (arguments, expected) in cases {
            let result = try await Binary.run(arguments + ["--home", home.path])
            #expect(result.status != 0, "\(arguments) should fail")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        let status = try await Binary.run(["status", "--home", home.path, "--json"])
        #expect(status.stdout.contains("\"ana\""))
    }

    /// An existing directory given as the home keeps its mode, even when the command fails
    /// (it may be shared: `--home /tmp`); one open to others is named in a warning.
    @Test func anExistingHomeKeepsItsModeAndOneOpenToOthersIsNamed() async throws {
        let home = Binary.Home()
        try FileManager.default.createDirectory(
            atPath: home.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let failed = try await Binary.run(["setup", "--home", home.path, "--name", "x", "--vice", ""])
        #expect(failed.status == 64, "\(failed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "a failed setup writes nothing")
        let saved = try await Binary.run(["setup", "--home", home.path, "--name", "x"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr.contains("chmod 700 \(home.path)"), "\(saved.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: home.path)[.posixPermissions] as? Int
        #expect(mode == 0o755, "the directory's mode is the owner's to set")
    }

    /// A `--home` that cannot be one is named with the reason, by every command, in words of
    /// its own (never a Foundation error code).
    @Test func aBadHomeIsNamedWithTheReason() async throws {
        let file = Binary.Home()
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        for command in [
            ["status"], ["setup", "--name", "ana"], ["monitor", "--count", "1"], ["export", "--format", "csv"],
            ["config", "show"], ["group", "show"], ["sync"], ["notify", "test"], ["recover"],
        ] {
            let result = try await Binary.run(command + ["--home", file.path])
            #expect(result.status != 0, "\(command)")
            #expect(
                result.stderr.contains("\(file.path) exists but is not a directory"), "\(command): \(result.stderr)")
        }
        // A directory that cannot be made: the part that failed and why.
        let blocked = file.path + "/inside"
        let made = try await Binary.run(["setup", "--name", "ana", "--home", blocked])
        #expect(made.status != 0)
        #expect(made.stderr.contains("Cannot create the data directory \(blocked)"), "\(made.stderr)")
        #expect(made.stderr.contains("Not a directory"), "the reason: \(made.stderr)")
        #expect(!made.stderr.contains("NSCocoaErrorDomain") && !made.stderr.contains("could not be completed"))
    }

    /// A monitor needs a home set up first, and writes nothing into one that is not; once set
    /// up, a monitor at a realistic pace says what it waits for instead of looking hung.
    @Test func theMonitorNeedsASetUpHomeAndSaysWhatItWaitsFor() async throws {
        let home = Binary.Home()
        let refused = try await Binary.run(["monitor", "--home", home.path, "--count", "1"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("screenmates setup --name NAME"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path), "nothing was created")
        // Set up at 08:00 on a simulated day: the typical day's first block is later than that.
        let start = "2026-11-21T08:00"
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana", "--start-at", start]).status == 0)
        let monitor = try await SpawnedProcess(Binary.path, ["monitor", "--home", home.path, "--start-at", start])
        let deadline = ContinuousClock.now + .seconds(30)
        while !monitor.standardError.contains("the next block") && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        monitor.kill(SIGTERM)
        await monitor.wait()
        #expect(monitor.standardError.contains("is due at"), "\(monitor.standardError)")
        #expect(monitor.standardError.contains("--rate N"), "\(monitor.standardError)")
    }

    @Test func statusOnAnEmptyHomeSaysWhatToDo() async throws {
        let home = Binary.Home()
        let result = try await Binary.run(["status", "--home", home.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("screenmates setup"), "\(result.stderr)")
    }

    @Test func aDamagedDatabaseIsNamedWithTheWayOutAndKept() async throws {
        let home = Binary.Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let junk = Data(repeating: 0x5A, count: 4096)
        _ = FileManager.default.createFile(atPath: home.path + "/local.sqlite", contents: junk)
        let result = try await Binary.run(["status", "--home", home.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(home.path + "/local.sqlite"), "\(result.stderr)")
        #expect(result.stderr.contains("recover"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: home.path + "/local.sqlite") == junk)
    }

    @Test func helpAndVersion() async throws {
        let help = try await Binary.run(["--help"])
        #expect(help.status == 0)
        for word in ["dashboard", "setup", "status"] { #expect(help.stdout.contains(word)) }
        let version = try await Binary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}
