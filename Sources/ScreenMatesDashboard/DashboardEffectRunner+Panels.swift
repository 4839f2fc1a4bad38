import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesUI
import ScreenMatesWatch

/// The effects of the settings screen and the debug panel: saving the settings, ending the
/// simulated day, clearing local data, and the panel's facts.
extension DashboardEffectRunner {
    /// Saves the settings a change from the settings screen made (`DashboardUpdate`) in the
    /// database and the config file (the change's own lines only). A new theme is drawn in once
    /// the figures read show it.
    func saveSettings(_ settings: UserSettings, for change: SettingsChange, confirmation: String?) -> DashboardEvent {
        do {
            try store.updateSettings(settings)
        } catch {
            logger.error("saving settings failed: \(error.message)")
            return .settingsRefused(error.message)
        }
        do {
            try settingsFile.save(settings, keys: change.keys)
        } catch {
            return .settingsRefused(error.message)
        }
        logger.info("settings changed", metadata: ["key": "\(change.key.rawValue)"])
        return .settingsSaved(message: confirmation)
    }

    /// Moves the simulated clock to the day's reset (`end`): the day ends as it would at its
    /// end, and its notices follow; the usage the rest of the day would have brought never
    /// happens. The demo's monitor was stopped first (and starts again after: `DashboardUpdate`).
    func endDay(at end: Date) -> DashboardEvent {
        do throws(AppError) {
            let adjustable = try ClockSource.adjustable(dependencies.clock)
            let now = try ClockSource.jump(adjustable, to: end, store: store)
            logger.info("simulated the end of the day", metadata: ["clock": "\(TimeFormat.iso8601(now))"])
            return .dayEnded(clock: now)
        } catch {
            return .dayNotEnded(error.message)
        }
    }

    /// Forgets this home's data (the user confirmed it on the debug panel); the first run starts
    /// again. The config file is moved aside first and put back should the database refuse, so
    /// either both are cleared or neither is. The demo, its mates and the group link were stopped
    /// first (`DashboardUpdate`), so nothing they had in hand lands in the cleared store.
    func clearLocalData(calendar: DayCalendar) -> DashboardEvent {
        let now = clock.now()
        let movedAside: String?
        do {
            movedAside = try settingsFile.setAside()
        } catch {
            return .localDataKept(error.message)
        }
        do {
            let catalogue = dependencies.catalogue
            _ = try store.clearLocalData(
                trackingStart: calendar.day(containing: now),
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
            return .localDataKept(message)
        }
        logger.notice("local data cleared", metadata: ["config moved to": "\(movedAside ?? "-")"])
        // A fresh config file with every key, from the new profile's settings.
        let configProblems = settingsFile.apply(to: store, catalogue: dependencies.catalogue, create: true)
        do {
            reader = try FiguresReader(store: store, clock: clock, timeZone: dependencies.timeZone)
        } catch {
            // The figures are the last ones read; the read the update asks for next says why.
            logger.error("reading the cleared data failed: \(error.message)")
        }
        return .localDataCleared(reader.figures, configProblems: configProblems)
    }

    /// What the debug panel shows.
    func debugLines(_ state: DashboardState) -> [DashboardContent.DebugLine] {
        let home = dependencies.home
        let status = state.group
        let figures = state.figures
        let settings = figures.settings
        let recorded = (try? store.noticeKeys(day: figures.today)) ?? (keys: [], shown: 0)
        var lines: [(String, String)] = [
            ("user id", settings.userID.value),
            (
                "machine",
                (try? store.thisMachine()).flatMap { $0 }.map { "\($0.name) · \($0.id.value.prefix(8))" } ?? "-"
            ),
            ("name", settings.displayName?.value ?? "(none)"),
            ("data directory", home.path),
            ("database", home.databasePath),
            ("log", home.path + "/screenmates.log"),
            ("group store", groupStore(remembered: settings.group?.store).description),
            ("group", settings.group.map { "\($0.code) · goal \($0.dailyGoalBlocks)" } ?? "(none)"),
            ("app clock", "\(TimeFormat.iso8601(clock.now())) · ×\(clock.speed)"),
            ("today", "\(figures.today) · resets \(TimeFormat.iso8601(figures.todayInterval.upperBound))"),
            ("events applied", "\(figures.eventsApplied)"),
            ("last sync", status?.lastSyncedAt.map(TimeFormat.iso8601) ?? "never"),
            ("days not synced", "\(status?.unsyncedDays ?? figures.history.filter { !$0.synced }.count)"),
            ("group store state", status.map { $0.offline ? "offline" : $0.busy ? "busy" : "online" } ?? "-"),
            ("group changes", status?.following?.description ?? "-"),
            ("notices today", "\(recorded.shown) shown, \(recorded.keys.count - recorded.shown) counted as sent"),
            ("next notice due", state.nextNoticeDue.map(TimeFormat.iso8601) ?? "-"),
            ("tasks", poolWatchdog.map { PoolWatchdog.summary($0.health) } ?? "-"),
        ]
        if let carrier = state.noticeCarrier, state.launch.desktop || settings.notificationDesktop {
            lines.append(("desktop notices", carrier.summary))
        }
        lines += recorded.keys.sorted().map { ("  recorded", $0) }
        lines += Self.leftOutLines(status?.leftOut ?? [], challenges: (try? store.challengesLeftOut()) ?? [])
        return lines.map { DashboardContent.DebugLine(label: $0.0, value: $0.1) }
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
