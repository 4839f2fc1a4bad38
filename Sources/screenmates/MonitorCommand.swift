import ArgumentParser
import Foundation
import ScreenMatesApp

struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Run the simulated usage monitor as its own process.",
        discussion: """
            Writes usage events for your apps into the local database, which an open dashboard picks \
            up within a second. Each event's id is printed on standard output once it is committed. \
            Without --rate it keeps a realistic pace on the app clock; without --count it runs until \
            stopped. Any number of monitors can write at once.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seed: the same seed makes the same events (and ids).", valueName: "n"))
    var seed: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many events.", valueName: "n"))
    var count: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Events per real second, or max for as fast as the store takes them.", valueName: "n|max"))
    var rate: String?

    @Option(
        help: ArgumentHelp(
            "Play a scenario: a name in assets/scenarios (typical-day, evening-binge) or a JSON file.",
            valueName: "name"))
    var scenario: String?

    @Flag(help: "Print neither the event ids nor what the monitor waits for.")
    var quiet = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1; \(count) is not.") }
        if let rate, Self.parseRate(rate) == nil {
            throw ValidationError(
                "--rate takes a number of events per second above 0 (up to 100000), or max; \"\(rate)\" is not one.")
        }
    }

    static func parseRate(_ text: String) -> MonitorOptions.Rate? {
        if text.lowercased() == "max" { return .unlimited }
        guard let value = Double(text), value > 0, value <= 100_000 else { return nil }
        return .perSecond(value)
    }

    func run() async throws {
        switch await perform() {
        case .success(let status):
            if status != 0 { throw ExitCode(status) }
        case .failure(let error):
            FileHandle.standardError.write(Data("screenmates: \(error.message)\n".utf8))
            throw ExitCode(error.exitStatus)
        }
    }

    private func perform() async -> Result<Int32, AppError> {
        let session: MonitorSession
        do {
            let home = try global.resolveHome(demo: clock.isSimulated)
            let assets = try AssetCatalog.locate(environment: ProcessInfo.processInfo.environment)
            let options = MonitorOptions(
                seed: seed, count: count, rate: rate.flatMap(Self.parseRate), speed: clock.speed,
                startAt: clock.startInstant, scenario: scenario, quiet: quiet)
            try home.requireData()
            try home.prepareWarning()
            let logger = LogSetup.bootstrap(home: home)
            StopSignals.install()
            session = try MonitorSession(home: home, assets: assets, options: options, logger: logger)
        } catch {
            return .failure(AppError(error))
        }
        return .success(await session.run(stopRequested: StopSignals.requestedExitStatus))
    }
}
