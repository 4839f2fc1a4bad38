import ArgumentParser
import ScreenMatesHome
import ScreenMatesReports

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the dashboard's numbers without the screen (--json for scripts).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(help: "Print JSON with the keys screenmates(5) lists.")
    var json = false

    @Flag(help: "Read the demo directory (where `dashboard --demo` keeps its data without --home).")
    var demo = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let (report, text) = try await StatusReport.read(
                home: try global.resolveHome(demo: demo), groupStore: global.groupStoreChoice, speed: clock.speed,
                startAt: clock.startInstant, timeZone: machineTimeZone, problem: printError)
            print(json ? report.json() : text)
            return 0
        }
    }
}
