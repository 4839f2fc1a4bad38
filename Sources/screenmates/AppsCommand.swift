import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesHome

/// `screenmates apps seen | add`: what real usage sources saw, and filing it.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "Applications seen, and your vice and productive lists.",
        subcommands: [AppsSeenCommand.self, AppsAddCommand.self])
}

struct AppsSeenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seen",
        abstract: "List the applications ActivityWatch saw that match none of your apps.",
        discussion: """
            They count toward no block. Each shows its active time over the days seen (focused, and \
            you not away) and when it was last seen. File one with `screenmates apps add NAME --vice` \
            or `--productive`. Only application names are kept, never window titles.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON: an array of {name, source, seconds, days, lastSeenAt}.")
    var json = false

    func run() async throws {
        try await reporting { () throws(AppError) -> Int32 in
            let seen = try AppFiling.unplacedSeenApps(
                home: try global.resolveHome(), environment: ProcessInfo.processInfo.environment)
            if json {
                struct Entry: Encodable {
                    var name, source: String
                    var seconds, days: Int
                    var lastSeenAt: String
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let entries = seen.map {
                    Entry(
                        name: $0.name, source: $0.source, seconds: $0.seconds, days: $0.days,
                        lastSeenAt: TimeFormat.iso8601($0.lastSeenAt))
                }
                print(String(decoding: (try? encoder.encode(entries)) ?? Data("[]".utf8), as: UTF8.self))
                return 0
            }
            guard !seen.isEmpty else {
                print("No unplaced application seen yet: everything ActivityWatch reported matched one of your apps.")
                return 0
            }
            let width = min(40, seen.map { CellWidth.of($0.name) }.max() ?? 4)
            for app in seen {
                let name = SafeText.padded(SafeText.truncated(app.name, toCells: width), toCells: width)
                let time = TimeFormat.duration(seconds: app.seconds)
                let last = TimeFormat.relative(app.lastSeenAt, now: Date())
                print(
                    "\(name)  \(String(repeating: " ", count: max(0, 8 - time.count)))\(time)  on \(app.days) \(app.days == 1 ? "day" : "days"), last \(last)"
                )
            }
            print("File one with `screenmates apps add NAME --vice` or `--productive`.")
            return 0
        }
    }
}

struct AppsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an app to your vice or productive list (moving it from the other).",
        discussion: """
            NAME is a catalogue app (Firefox, vscode…) or the name a usage source reports (as \
            `apps seen` lists it); a name not in the catalogue matches that reported name, ignoring case.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The app.", valueName: "name"))
    var name: String

    @Flag(help: "A vice (distracting) app.")
    var vice = false

    @Flag(help: "A productive app.")
    var productive = false

    func validate() throws {
        guard vice != productive else { throw ValidationError("Say which list: --vice or --productive.") }
    }

    func run() async throws {
        try await reporting { () throws(AppError) -> Int32 in
            let home = try global.resolveHome()
            try home.requireData()
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let app = try AppFiling.add(name, as: vice ? .vice : .productive, home: home, assets: assets)
            print("\(SafeText.displayable(app.name)) is now one of your \(app.category.rawValue) apps.")
            return 0
        }
    }
}
