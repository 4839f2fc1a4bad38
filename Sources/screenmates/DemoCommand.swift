import ArgumentParser
import Foundation
import ScreenMatesGroupSync
import ScreenMatesHome

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Simulated group-mates, so one person can watch a live leaderboard move.",
        discussion: """
            Puts you in a group (making one if you are in none, left again when the demo ends) and \
            adds N simulated members, simulated in this process and written to the same group store \
            (a shared file: never a server, nor a group with other people in it). Watch them from \
            your dashboard in another terminal. Ctrl-C takes them out of the group again.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("How many simulated members (1-200).", valueName: "n"))
    var members = 5

    @Option(parsing: .unconditional, help: ArgumentHelp("Seed for the members' usage.", valueName: "n"))
    var seed: UInt64 = 1

    func validate() throws {
        guard (1...GroupDemo.maximumMembers).contains(members) else {
            throw ValidationError("--members must be between 1 and \(GroupDemo.maximumMembers); \(members) is not.")
        }
    }

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try global.resolveHome(demo: clock.isSimulated)
            try home.prepareWarning()
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let logger = LogSetup.bootstrap(home: home)
            StopSignals.install()
            let demo = try GroupDemo(
                home: home, assets: assets, location: try global.groupStoreChoice.named(home: home),
                options: .init(members: members, speed: clock.speed, startAt: clock.startInstant, seed: seed),
                timeZone: machineTimeZone, environment: ProcessInfo.processInfo.environment, logger: logger)
            return try await StopSignals.watching { stop throws(AppError) in try await demo.run(stop: stop) }
        }
    }
}
