import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesStore

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the dashboard's numbers without the screen (--json for scripts).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(help: "Print JSON with the keys listed in the README.")
    var json = false

    @Flag(help: "Read the demo directory (where `dashboard --demo` keeps its data without --home).")
    var demo = false

    func run() throws {
        try runReportingErrors { () throws(AppError) -> Int32 in
            let home = try global.resolveHome(demo: demo)
            guard FileManager.default.fileExists(atPath: home.databasePath) else {
                throw AppError(
                    "There is no ScreenMates data in \(home.path) yet. Run `screenmates` (or `screenmates setup --name NAME`) first."
                )
            }
            do {
                let store = try home.openStore()
                let choice = try ClockSource.choose(
                    speed: clock.speed, startAt: clock.startInstant, store: store, publish: false)
                let feed = try UsageFeed(
                    store: store, clock: choice.clock, timeZone: { TimeZone.current }, writes: false)
                let data = DashboardDataBuilder.make(feed: feed, now: choice.clock.now())
                let report = StatusReport(feed: feed, data: data)
                print(json ? report.json() : report.text(data: data))
                return 0
            } catch {
                throw AppError(error)
            }
        }
    }
}
