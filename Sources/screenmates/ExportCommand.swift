import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesReports

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write your finished days as CSV or JSON.",
        discussion: """
            One row (CSV) or object (JSON) per finished day: date, vice and productive blocks, the goal \
            that day, whether it was over the limit, time earned and spent, the ending balance and \
            overdraft, the streak after the day, whether it reached the group, and the blocks per app. \
            Hidden apps count in every figure but are named only with --include-hidden. Standard output \
            by default; with --output the file is written whole or not at all.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("csv or json.", valueName: "format"))
    var format: String

    // Unconditional, so that `--days -3` reaches the check below instead of reading as an option.
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Only the last N finished days (default: all).", valueName: "n"))
    var days: Int?

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .customLong("include-hidden"), help: "Name hidden apps too (by default they show as \"(hidden)\").")
    var includeHidden = false

    func validate() throws {
        guard HistoryExport.Format(rawValue: format.lowercased()) != nil else {
            throw ValidationError("--format must be csv or json; \"\(SafeText.displayable(format))\" is neither.")
        }
        if let days, days < 1 {
            throw ValidationError("--days must be 1 or more (how many of the last finished days); \(days) is not.")
        }
        if let output, output.isEmpty { throw ValidationError("--output needs a file path.") }
    }

    func run() async throws {
        try await reporting { () throws(AppError) -> Int32 in
            let home = try global.resolveHome()
            try home.requireData()
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let export = try HistoryExport(
                home: home, assets: assets, timeZone: machineTimeZone, limit: days, includeHidden: includeHidden,
                problem: printError)
            let text = export.text(HistoryExport.Format(rawValue: format.lowercased())!)
            if let output {
                let path = (output as NSString).expandingTildeInPath
                try AtomicFile.write(Data(text.utf8), to: path)
                let count = export.days.count
                print("Exported \(count) day\(count == 1 ? "" : "s") to \(path).")
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
            return 0
        }
    }
}
