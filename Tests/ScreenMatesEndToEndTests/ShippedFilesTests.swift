import Foundation
import ScreenMatesTestSupport
import Testing

/// The shell completions and the manual page shipped in `assets/` are what the built binary's
/// command definitions give now: each is made again and compared, so a new option cannot be
/// missing from them. `SCREENMATES_UPDATE_ASSETS=1` writes them again instead (look at the diff
/// before committing).
@Suite struct ShippedFilesTests {
    static let updateVariable = "SCREENMATES_UPDATE_ASSETS"
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("assets")

    static var updating: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }

    @Test(arguments: [
        ("bash", "completions/screenmates.bash"), ("zsh", "completions/_screenmates"),
        ("fish", "completions/screenmates.fish"),
    ])
    func completionsAreCurrent(shell: String, file: String) async throws {
        let generated = try await Binary.run(["--generate-completion-script", shell])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("group"), "the \(shell) script completes the subcommands")
        try compare(generated.stdout, with: file)
    }

    @Test func manualPageIsCurrent() async throws {
        let dump = try await Binary.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let keys = try await Binary.run(["dashboard", "--experimental-dump-keys"])
        #expect(keys.status == 0, "\(keys.stderr)")
        let url = Self.assets.appendingPathComponent("screenmates.1")
        // The date is that of the page's last change: kept while nothing else changes.
        let shipped = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        let shippedDate = shipped.split(separator: "\n").first { $0.hasPrefix(".Dd ") }.map { String($0.dropFirst(4)) }
        var page = try ManualPage.render(
            dumpHelp: Data(dump.stdout.utf8), keys: Data(keys.stdout.utf8), date: shippedDate ?? "")
        if Self.updating && page != shipped {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "MMMM d, yyyy"
            page = try ManualPage.render(
                dumpHelp: Data(dump.stdout.utf8), keys: Data(keys.stdout.utf8), date: formatter.string(from: Date()))
        }
        try compare(page, with: "screenmates.1")
        for command in ["dashboard", "group", "monitor", "export", "challenge"] {
            #expect(page.contains(".Ss \(command)"), "the page has a section on \(command)")
        }
        for section in ["KEYS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(page.contains(".Sh \(section)"), "the page has \(section)")
        }
        #expect(page.contains(".It Ic q"), "KEYS lists the key table's quit")
    }

    /// The manual pages `assets/` ships: section 1 (generated), 5 and 7 (written by hand).
    static let manualPages = [
        "screenmates.1", "screenmates.5", "screenmates-games.7", "screenmates-groups.7", "screenmates-monitor.7",
    ]

    /// Each page as `man` shows it: groff reads it without a warning (`-ww`), and so does mandoc's
    /// lint where mandoc is installed (its style notes that a page it refers to is not installed
    /// on this machine aside).
    @Test(arguments: manualPages)
    func manualPageLints(_ name: String) async throws {
        let page = Self.assets.appendingPathComponent(name).path
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let groff = try await Command.run(
            "/usr/bin/env", ["groff", "-man", "-ww", "-z", page], environment: environment)
        #expect(groff.status == 0 && groff.stderr.isEmpty, "groff warns on \(name): \(groff.stderr)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc") else { return }
        let lint = try await Command.run("/usr/bin/mandoc", ["-Tlint", page], environment: environment)
        let said = (lint.stdout + lint.stderr).split(separator: "\n").filter {
            !$0.contains("referenced manual not found") && !$0.contains("mandoc.db")
        }
        #expect(said.isEmpty, "mandoc -Tlint on \(name):\n\(said.joined(separator: "\n"))")
    }

    /// The page as `man` shows it: groff reads it without a warning, and the options are there.
    @Test func manualPageReads() async throws {
        let page = Self.assets.appendingPathComponent("screenmates.1").path
        let rendered = try await Command.run(
            "/usr/bin/env", ["groff", "-mandoc", "-Tutf8", "-ww", "-P-cbou", page],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(rendered.status == 0)
        #expect(rendered.stderr.isEmpty, "groff warns: \(rendered.stderr)")
        #expect(rendered.stdout.contains("group-store"))
        #expect(rendered.stdout.contains("prepare-store"))
        #expect(rendered.stdout.contains("EXIT STATUS"))
    }

    private func compare(_ generated: String, with file: String) throws {
        let url = Self.assets.appendingPathComponent(file)
        if Self.updating {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try generated.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let shipped = try? String(contentsOf: url, encoding: .utf8)
        #expect(
            shipped == generated,
            "assets/\(file) is not what the binary gives now; run `\(Self.updateVariable)=1 swift test --filter ShippedFilesTests`"
        )
    }
}
