import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesMonitorRuntime

/// The demo (`dashboard --demo`): its simulated monitor, writing to the local store, and its
/// simulated group-mates (`--members N`), who live in the demo's own group store, a file in the
/// home (`demo-group.sqlite`), never in a group of real people. When each starts and stops is
/// decided by the update (`DashboardUpdate.followMates` for the mates); the runner holds the
/// monitor and the task the mates run in.
extension DashboardEffectRunner {
    /// Starts the simulated monitor for `settings` (it writes from the app clock's now on).
    func startDemo(settings: UserSettings, calendar: DayCalendar) {
        guard let scenario = dependencies.scenario else { return }
        let seed = dependencies.options.seed ?? DemoMonitor.seed(for: settings.userID)
        let inbox = self.inbox
        demo.start(
            store: store, clock: clock, settings: settings, scenario: scenario, seed: seed, calendar: calendar,
            owner: tasks, onRecorded: { inbox.post(.demoRecorded) }, onProblem: { inbox.post(.demoProblem($0)) })
        logger.info("demo monitor started", metadata: ["seed": "\(seed)", "scenario": "\(scenario.name)"])
    }

    /// Where this run's groups live: the demo's own store when the demo brings mates, the store
    /// named for the run.
    static func groupStores(_ dependencies: DashboardDependencies) -> SessionGroupStores {
        SessionGroupStores(
            demo: dependencies.options.mates > 0
                ? .sqlite(path: dependencies.home.path + "/" + Self.demoGroupFileName) : nil,
            named: dependencies.options.groupStore)
    }

    static let demoGroupFileName = "demo-group.sqlite"

    /// Takes the mates out of their group (in the background; the session awaits it).
    func stopMates() {
        mates?.cancel()
        mates = nil
    }

    /// Brings the mates into the group `code` of the demo's own store, for the user `settings`
    /// describe; they say through the inbox whether they could join.
    func startMates(in code: GroupCode, settings: UserSettings) {
        guard let location = groupStores.demo, let profile = dependencies.mateProfile else { return }
        stopMates()
        let count = dependencies.options.mates
        let seed = dependencies.options.seed ?? DemoMonitor.seed(for: settings.userID)
        let clock = self.clock
        let calendar = DayCalendar(timeZone: dependencies.timeZone.current(), dayStartHour: settings.dayStartHour)
        let logger = self.logger
        let inbox = self.inbox
        mates = tasks.start {
            let mates: DemoMates
            do throws(AppError) {
                mates = try await DemoMates.join(
                    count: count, location: location, code: code, user: settings.userID, seed: seed, profile: profile,
                    blockMinutes: settings.rules.blockMinutes, clock: clock, calendar: calendar, logger: logger)
            } catch {
                logger.error("the demo's simulated mates could not join \(code): \(error.message)")
                inbox.post(.matesProblem("no demo mates - see the log"))
                return
            }
            logger.info("simulated mates joined \(code)", metadata: ["mates": "\(mates.names.joined(separator: " "))"])
            inbox.post(.matesProblem(nil))
            await mates.run()
            await mates.leave()
            logger.info("simulated mates left \(code)")
        }
    }
}
