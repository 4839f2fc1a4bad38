import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore

/// The demo's simulated group-mates (`dashboard --demo --members N`): they live in the demo's own
/// group store, a file in the home (`demo-group.sqlite`), never in a group of real people, and
/// follow the user's group there — started when the demo starts, taken out when the user leaves
/// it, when the home is cleared and when the dashboard ends.
extension DashboardEffectRunner {
    /// The demo's own group store, when the demo brings mates.
    var demoGroupStore: GroupStoreLocation? {
        guard dependencies.options.mates > 0 else { return nil }
        return .sqlite(path: dependencies.home.path + "/" + Self.demoGroupFileName)
    }

    static let demoGroupFileName = "demo-group.sqlite"

    /// Brings the mates to the group `settings` names when it is the demo's own, and takes them
    /// out of any other. A user in no group gets one in the demo's store when `makingGroup` (the
    /// demo starting); the mates follow once it is connected.
    func followMates(_ settings: UserSettings, makingGroup: Bool) {
        guard let location = demoGroupStore, settings.displayName != nil else { return }
        var code: GroupCode?
        if let membership = settings.group {
            if groupStore(remembered: membership.store) == location {
                code = membership.code
            } else {
                let problem = "no demo mates: this home is in group \(membership.code) elsewhere"
                logger.notice(
                    "\(problem); simulated mates join only the demo's own group (leave that group, or give --members 0)"
                )
                inbox.post(.matesProblem(problem))
            }
        }
        if let running = mates, running.code != code { stopMates() }
        guard let code else {
            if makingGroup, settings.group == nil, !makingDemoGroup { makeDemoGroup(settings) }
            return
        }
        if mates == nil { startMates(in: code, settings: settings, location: location) }
    }

    /// Takes the mates out of their group (in the background; the session awaits it).
    func stopMates() {
        mates?.task.cancel()
        mates = nil
        makingDemoGroup = false
    }

    private func startMates(in code: GroupCode, settings: UserSettings, location: GroupStoreLocation) {
        guard let profile = dependencies.mateProfile else { return }
        let count = dependencies.options.mates
        let seed = dependencies.options.seed ?? Self.seed(for: settings.userID)
        let clock = self.clock
        let calendar = DayCalendar(timeZone: dependencies.timeZone.current(), dayStartHour: settings.dayStartHour)
        let logger = self.logger
        let inbox = self.inbox
        let task = tasks.start {
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
        mates = (code, task)
    }

    /// Makes a group in the demo's store for a user in none: the demo's mates need one.
    private func makeDemoGroup(_ settings: UserSettings) {
        makingDemoGroup = true
        startGroupAction(.create(goal: settings.rules.dailyGoalBlocks), remembered: nil)
    }
}
