import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitorRuntime

/// `screenmates import activitywatch`: past days from ActivityWatch.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Bring in past usage.", subcommands: [ImportActivityWatchCommand.self])
}

struct ImportActivityWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activitywatch",
        abstract: "Bring in past days from ActivityWatch.",
        discussion: """
            Reads the focused windows (and, where an AFK watcher runs, the time you were away) that \
            ActivityWatch recorded, and turns each day into blocks exactly as `monitor --source \
            activitywatch` does: the same blocks with the same ids, so importing again, or importing \
            days the monitor followed, counts nothing twice. Each day gets its history row, streak and \
            sparkline entry. Window titles are read only to match sites; they are never stored.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var activityWatch: ActivityWatchServerOptions

    @Option(
        help: ArgumentHelp(
            "The first day to import, YYYY-MM-DD (default: when ActivityWatch began watching, at most 10 years ago).",
            valueName: "date"))
    var since: String?

    func validate() throws {
        if let since, LocalDate(iso8601: since) == nil {
            throw ValidationError(
                "--since takes a date such as 2026-11-01; \"\(SafeText.displayable(since))\" is not one.")
        }
    }

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try global.resolveHome()
            try home.requireData()
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let importer = try ActivityWatchImport(
                home: home, assets: assets, options: activityWatch.options(),
                timeZone: machineTimeZone)
            let summary = try await importer.run(since: since.flatMap(LocalDate.init(iso8601:)))
            print(Self.describe(summary))
            return 0
        }
    }

    static func describe(_ summary: ActivityWatchImport.Summary) -> String {
        let blocks = summary.viceBlocks + summary.productiveBlocks
        var lines = [
            "Imported \(summary.firstDay) to \(summary.lastDay) from ActivityWatch (host \(SafeText.displayable(summary.host))): "
                + "\(blocks) \(blocks == 1 ? "block" : "blocks") (\(summary.viceBlocks) vice, \(summary.productiveBlocks) productive) "
                + "on \(summary.daysWithBlocks) \(summary.daysWithBlocks == 1 ? "day" : "days")"
                + (summary.alreadyThere > 0 ? "; \(summary.alreadyThere) of them were there already." : ".")
        ]
        lines.append("Read \(summary.eventsRead) ActivityWatch events.")
        if summary.focusOnly {
            lines.append("There is no AFK bucket, so focused time counted whether or not you were there.")
        }
        if summary.eventsSkipped > 0 {
            lines.append(
                "\(summary.eventsSkipped) of \(summary.eventsRead + summary.eventsSkipped) events could not be read and were skipped."
            )
        }
        if summary.unplaced.isEmpty {
            lines.append("Every application seen matched one of your apps.")
        } else {
            let shown = summary.unplaced.prefix(8).map {
                "\(SafeText.displayable($0.name)) \(TimeFormat.duration(seconds: $0.seconds))"
            }
            lines.append(
                "Seen but not one of your apps (counted in no block): \(shown.joined(separator: ", "))"
                    + (summary.unplaced.count > 8 ? " and \(summary.unplaced.count - 8) more" : "")
                    + ". `screenmates apps seen` lists them; add one with `screenmates apps add NAME --vice` or `--productive`."
            )
        }
        return lines.joined(separator: "\n")
    }
}
