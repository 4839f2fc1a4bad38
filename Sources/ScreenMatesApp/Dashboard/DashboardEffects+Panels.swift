import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore
import ScreenMatesUI

/// The effects of the settings screen and the debug panel: saving a setting, ending the
/// simulated day, clearing local data, and the panel's facts.
extension DashboardEffects {
    /// Saves a change from the settings screen in the database and the config file (its own
    /// line only); a new theme applies at once unless one was named on the command line.
    func changeSettings(_ change: SettingsChange) -> DashboardEvent {
        let options = dependencies.options
        do {
            guard var settings = try store.settings() else { return .settingsRefused("There is no profile yet.") }
            if case .addApp(let name, let category) = change {
                let apps = try ProfileSetup.resolveApps([name], category: category, catalogue: dependencies.catalogue)
                guard let app = apps.first, !settings.apps.contains(where: { $0.id == app.id }) else {
                    return .settingsRefused("\(SafeText.displayable(name)) is already on your lists.")
                }
                settings.apps.append(app)
            } else {
                change.apply(to: &settings)
            }
            try store.updateSettings(settings)
            try settingsFile.save(settings, keys: change.keys)
            logger.info("settings changed", metadata: ["key": "\(change.key.rawValue)"])
            if case .theme(let choice) = change, options.theme == nil, options.useColor {
                theme = try dependencies.assets.theme(named: choice.rawValue)
                screen.setTheme(theme)
            }
            if case .addApp(let name, _) = change {
                return .settingsSaved(message: "Added \(SafeText.displayable(name)).")
            }
            return .settingsSaved(message: nil)
        } catch let error as AppError {
            return .settingsRefused(error.message)
        } catch let error as StoreError {
            logger.error("saving settings failed: \(error.message)")
            return .settingsRefused(error.message)
        } catch {
            return .settingsRefused(String(describing: error))
        }
    }

    /// Moves the simulated clock to the day's reset: the day ends as it would at its end, its
    /// notices follow, and the demo monitor (started again) goes on from the new day's start;
    /// the usage the rest of the day would have brought never happens.
    func endDay() -> [DashboardEvent] {
        do throws(AppError) {
            let adjustable = try ClockSource.adjustable(dependencies.clock)
            let demoRan = demo.isRunning
            demo.stop()
            defer { if demoRan { startDemo() } }
            let now = try ClockSource.jump(adjustable, to: feed.todayInterval.upperBound, store: store)
            let numbers = refresh(checkTimeZone: false)
            logger.info("simulated the end of the day", metadata: ["clock": "\(TimeFormat.iso8601(now))"])
            let (hour, minute) = feed.calendar.hourAndMinute(of: now)
            return numbers + [
                .dayEnded(
                    message:
                        "The day is over: the clock moved to \(TimeFormat.clock(hour: hour, minute: minute)) and \(feed.today) has begun. Its notices show on the dashboard (esc)."
                )
            ]
        } catch {
            return [.dayNotEnded(error.message)]
        }
    }

    /// Forgets this home's data (the user confirmed it on the debug panel); the first run starts
    /// again. The config file is moved aside first and put back should the database refuse, so
    /// either both are cleared or neither is; the demo and the group link are stopped first, so
    /// nothing they have in hand lands in the cleared store.
    func clearLocalData() -> DashboardEvent {
        let demoRan = demo.isRunning
        let linked = groupLink != nil
        stopBackground()
        let now = clock.now()
        func keepEverything(_ message: String) -> DashboardEvent {
            logger.error("clearing local data failed: \(message)")
            if linked { inbox.post(connectGroup()) }
            if demoRan { startDemo() }
            return .localDataKept(message)
        }
        let movedAside: String?
        do {
            movedAside = try settingsFile.setAside()
        } catch {
            return keepEverything(error.message)
        }
        do {
            let catalogue = dependencies.catalogue
            _ = try store.clearLocalData(
                trackingStart: feed.calendar.day(containing: now),
                apps: catalogue.defaultVice + catalogue.defaultProductive, now: now)
        } catch {
            var message = "Nothing was cleared: \(error.message)"
            if let movedAside {
                do {
                    try FileManager.default.moveItem(atPath: movedAside, toPath: settingsFile.path)
                } catch {
                    message += " \(SettingsFile.fileName) could not be put back; it is at \(movedAside)."
                }
            }
            return keepEverything(message)
        }
        logger.notice("local data cleared", metadata: ["config moved to": "\(movedAside ?? "-")"])
        // A fresh config file with every key, from the new profile's settings.
        let configProblems = settingsFile.apply(to: store, catalogue: dependencies.catalogue, create: true)
        do {
            feed = try UsageFeed(store: store, clock: clock, timeZone: dependencies.timeZone)
        } catch {
            logger.error("reading the cleared data failed: \(error.message)")
            _ = refresh(checkTimeZone: false)
        }
        let options = dependencies.options
        if options.theme == nil, options.useColor,
            let fresh = try? dependencies.assets.theme(named: feed.settings.theme.rawValue)
        {
            theme = fresh
            screen.setTheme(fresh)
        }
        notices = NoticeCenter(store: store, now: now)
        return .localDataCleared(feed.numbers, configProblems: configProblems)
    }

    /// What the debug panel shows.
    func debugLines(nextNoticeDue: Date?) -> [DashboardData.DebugLine] {
        let home = dependencies.home
        let status = groupLink?.status
        let recorded = (try? store.noticeKeys(day: feed.today)) ?? (keys: [], shown: 0)
        var lines: [(String, String)] = [
            ("user id", feed.settings.userID.value),
            ("name", feed.settings.displayName?.value ?? "(none)"),
            ("data directory", home.path),
            ("database", home.databasePath),
            ("log", home.path + "/screenmates.log"),
            ("group store", groupStore.description),
            ("group", feed.settings.group.map { "\($0.code) · goal \($0.dailyGoalBlocks)" } ?? "(none)"),
            ("app clock", "\(TimeFormat.iso8601(clock.now())) · ×\(clock.speed)"),
            ("today", "\(feed.today) · resets \(TimeFormat.iso8601(feed.todayInterval.upperBound))"),
            ("events applied", "\(feed.eventsApplied)"),
            ("last sync", status?.lastSyncedAt.map(TimeFormat.iso8601) ?? "never"),
            ("days not synced", "\(status?.unsyncedDays ?? feed.history.filter { !$0.synced }.count)"),
            ("group store state", status.map { $0.offline ? "offline" : $0.busy ? "busy" : "online" } ?? "-"),
            ("notices today", "\(recorded.shown) shown, \(recorded.keys.count - recorded.shown) counted as sent"),
            ("next notice due", nextNoticeDue.map(TimeFormat.iso8601) ?? "-"),
        ]
        if dependencies.options.desktop || feed.settings.notificationDesktop {
            let carrier = noticeTerminal
            lines.append(("desktop notices", carrier.summary))
        }
        lines += recorded.keys.sorted().map { ("  recorded", $0) }
        var rows: [LeftOutRow] = []
        for row in (status?.snapshot?.leftOut ?? []) + (gamesLink?.status.snapshot?.leftOut ?? [])
        where !rows.contains(row) {
            rows.append(row)
        }
        lines += Self.leftOutLines(rows, challenges: (try? store.challengesLeftOut()) ?? [])
        return lines.map { DashboardData.DebugLine(label: $0.0, value: $0.1) }
    }

    /// The debug panel's lines naming what was left out because it cannot be right: the group
    /// store's rows, and challenges held in this home. None when nothing was.
    static func leftOutLines(_ rows: [LeftOutRow], challenges: [LeftOutChallenge]) -> [(String, String)] {
        let count = rows.count + challenges.count
        guard count > 0 else { return [] }
        return [("left out", "\(count) row\(count == 1 ? "" : "s") that cannot be right, not shown")]
            + rows.map { ("  \($0.kind.rawValue)", "\($0.key): \($0.reason)") }
            + challenges.map { ("  challenge", "\(SafeText.displayable($0.id)) (this home): \($0.reason)") }
    }
}
