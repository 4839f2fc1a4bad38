import ArgumentParser
import Foundation
import ScreenMatesHome

struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Keep the database small: fold the events of old days into their day rows.",
        discussion: """
            Every figure is derived from the usage events, which only grow. A finished, archived day \
            older than the last N days (default 90, never fewer than 7) keeps its row — blocks, \
            balance, streak, goal — and its blocks and seconds per app (for export); its events go, \
            their ids are kept (a late copy of one is still refused), and the day is sealed: usage \
            dated in it is not taken any more. Days an undecided challenge covers keep their events. \
            Then the file is compacted. Every figure is the same before and after.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("keep-days"), parsing: .unconditional,
        help: ArgumentHelp("Keep the events of the last N days (7 or more).", valueName: "n"))
    var keepDays = HomePruning.defaultKeptDays

    func run() async throws {
        try await reporting { () throws(AppError) -> Int32 in
            let home = try global.resolveHome()
            try home.requireData()
            let report = try HomePruning.prune(home: home, keepDays: keepDays, timeZone: machineTimeZone)
            print(HomePruning.summary(report))
            return 0
        }
    }
}
