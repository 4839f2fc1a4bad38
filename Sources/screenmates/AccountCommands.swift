import ArgumentParser
import Foundation
import ScreenMatesGroupSync
import ScreenMatesHome

/// `screenmates restore`: the member back on a new machine, from the group store.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Get your group, name and days back from the group store (on a new machine, or after clearing).",
        discussion: """
            Signs in to the group store as you: with the copy of your old home's member-identity file \
            (--identity), or this home's own. Brings back your newest group, your display name and the \
            day totals the group holds, as history and streak. Into a new home, or the home you had. \
            With --start-at (or --speed) a new home's first day comes from that clock, as with `setup`, \
            so a demo or a test can restore a home on the clock its dashboard will run on.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Option(
        help: ArgumentHelp(
            "A copy of the member-identity file of the home you used before.", valueName: "file"))
    var identity: String?

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try global.resolveHome()
            try home.prepareWarning()
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let catalogue = try assets.appCatalogue()
            let actions = try AccountActions.open(
                home: home, groupStore: global.groupStoreChoice, timeZone: machineTimeZone, speed: clock.speed,
                startAt: clock.startInstant)
            let restored = try await actions.restore(
                identityFile: identity, apps: catalogue.defaultVice + catalogue.defaultProductive)
            print(
                "Restored \(restored.name) (user id \(restored.userID)) in group \(restored.code): "
                    + "\(restored.days) day\(restored.days == 1 ? "" : "s") of history, a streak of \(restored.streak)."
                    + (restored.openChallenges > 0
                        ? " \(restored.openChallenges) challenge\(restored.openChallenges == 1 ? "" : "s") open to all."
                        : "")
                    + (restored.machineSentence.map { " " + $0 } ?? "")
            )
            return 0
        }
    }
}

/// `screenmates account delete`: every row of yours out of the group store.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Your account in the group store.",
        subcommands: [Delete.self])

    /// What the account commands need: the home's store, clock and group store.
    static func actions(_ global: GlobalOptions, home: HomeDirectory) throws(AppError) -> AccountActions {
        try AccountActions.open(home: home, groupStore: global.groupStoreChoice, timeZone: machineTimeZone)
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove everything of yours from the group store, then this home's data.",
            discussion: """
                Removes your profile, day totals, challenge parts, week results, coins and ranking entry \
                from the group store (a group you were the last member of goes too), then this home's \
                database and member identity. Asks you to type DELETE first, unless --yes. Stop the \
                dashboard and any monitor of this home first.
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        @Flag(name: .customLong("keep-local"), help: "Keep this home's data; remove only what the group store holds.")
        var keepLocal = false

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let home = try global.resolveHome()
                try home.requireData()
                let actions = try AccountCommand.actions(global, home: home)
                if !yes {
                    let what =
                        keepLocal ? "your rows in the group store" : "your rows in the group store and \(home.path)"
                    print("This removes \(what). Type DELETE to go on: ", terminator: "")
                    guard readLine()?.trimmingCharacters(in: .whitespaces) == "DELETE" else {
                        print("Nothing was removed.")
                        return 1
                    }
                }
                let left = try await actions.delete(keepingLocal: keepLocal)
                print(
                    "Your account is gone from the group store (\(left) group\(left == 1 ? "" : "s") left)"
                        + (keepLocal ? "." : ", and this home's data with it."))
                return 0
            }
        }
    }
}
