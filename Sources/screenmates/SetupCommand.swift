import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesHome

struct SetupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Set your display name and tracked apps without the setup screens.",
        discussion: """
            Apps are given by name or id from the catalogue (assets/apps.json), or any other name \
            for an app that is not in it. Listing apps for a category replaces that category's list. \
            With --start-at (or --speed) the profile's first day comes from that clock, so a demo or a \
            test can set a home up on the clock its dashboard will run on; without --home that is the \
            demo directory. A group store named here (--group-store or SCREENMATES_GROUP_STORE) is \
            remembered: `group create` and `group join` go to it without naming it again.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Option(help: ArgumentHelp("Display name: 1-20 letters, digits or underscores.", valueName: "name"))
    var name: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Vice (distracting) apps.", valueName: "app"))
    var vice: [String] = []

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Productive apps.", valueName: "app"))
    var productive: [String] = []

    @Option(
        name: .customLong("day-start-hour"), parsing: .unconditional,
        help: ArgumentHelp("Hour (0-23) at which your day starts; 4 suits night owls.", valueName: "hour"))
    var dayStartHour: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Your own daily limit in vice blocks, used without a group (1-96).", valueName: "blocks"))
    var goal: Int?

    func validate() throws {
        do {
            _ = try DisplayName(validating: name)
        } catch {
            throw ValidationError(error.message)
        }
        if let dayStartHour, !UserSettings.dayStartHourRange.contains(dayStartHour) {
            throw ValidationError("--day-start-hour must be between 0 and 23; \(dayStartHour) is not.")
        }
        if let goal, !UsageRules.dailyGoalRange.contains(goal) {
            throw ValidationError("--goal must be between 1 and 96 blocks; \(goal) is not.")
        }
    }

    func run() async throws {
        try await reporting { () throws(AppError) -> Int32 in
            let home = try global.resolveHome(demo: clock.isSimulated)
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let catalogue = try assets.appCatalogue()
            let displayName = try! DisplayName(validating: name)
            // Everything the command line says is checked before anything is written.
            let viceApps = try ProfileSetup.resolveApps(vice, category: .vice, catalogue: catalogue)
            let productiveApps = try ProfileSetup.resolveApps(productive, category: .productive, catalogue: catalogue)
            // A store named now is where the group commands that follow go, without naming it again.
            let namedStore = try global.groupStoreChoice.named(home: home)
            try home.prepareWarning()
            let settings = try ProfileSetup.save(
                ProfileSetup.Choices(
                    name: displayName, vice: viceApps, productive: productiveApps, dayStartHour: dayStartHour,
                    goal: goal),
                home: home, catalogue: catalogue, speed: clock.speed, startAt: clock.startInstant,
                timeZone: machineTimeZone)
            if let namedStore { try home.rememberGroupStore(namedStore.remembered) }
            print("Saved \(displayName.value) in \(home.path).")
            if let namedStore { print("Group store: \(namedStore) (remembered for the group commands that follow).") }
            print("Vice apps: " + settings.viceApps.map(\.name).joined(separator: ", "))
            print("Productive apps: " + settings.productiveApps.map(\.name).joined(separator: ", "))
            return 0
        }
    }
}
