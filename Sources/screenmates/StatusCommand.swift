import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the dashboard's numbers without the screen (--json for scripts).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(help: "Print JSON with the keys listed in the README.")
    var json = false

    @Flag(help: "Read the demo directory (where `dashboard --demo` keeps its data without --home).")
    var demo = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try global.resolveHome(demo: demo)
            try home.requireData()
            let store: LocalStore
            let feed: UsageFeed
            let choice: ClockSource.Choice
            do {
                store = try home.openStore()
                // The config file wins for the keys it sets, here as everywhere.
                let catalogue =
                    (try? AssetCatalog.locate(environment: ProcessInfo.processInfo.environment).appCatalogue())
                    ?? AppCatalogue(apps: [], defaultVice: [], defaultProductive: [])
                for problem in SettingsFile(home: home).apply(to: store, catalogue: catalogue) {
                    FileHandle.standardError.write(Data("screenmates: \(problem)\n".utf8))
                }
                choice = try ClockSource.choose(
                    speed: clock.speed, startAt: clock.startInstant, store: store, publish: false,
                    timeZone: machineTimeZone)
                feed = try UsageFeed(store: store, clock: choice.clock, timeZone: machineTimeZone, writes: false)
            } catch {
                throw AppError(error)
            }
            // The group as the store has it now (read only), or as cached when it is unreachable.
            var group: GroupLink.Status?
            var games: (snapshot: GroupGamesSnapshot?, offline: Bool) = (nil, false)
            if let membership = feed.settings.group {
                let location = try global.resolveGroupStore(home: home, settings: feed.settings)
                let actions = GroupActions(
                    local: store, location: location, clock: choice.clock, timeZone: machineTimeZone)
                // Unreachable with nothing cached, or refused (a login…): standard error says why,
                // and a refusal is not called out of reach.
                var shown: (snapshot: GroupSnapshot, offline: Bool)?
                var refused = false
                do throws(GroupActions.Failure) {
                    shown = try await actions.showExplained()
                } catch {
                    if case .store(let storeError) = error { refused = !storeError.isTransient }
                    FileHandle.standardError.write(Data("screenmates: \(error.message)\n".utf8))
                }
                // The group's games, only read: `status` reports nothing.
                let reader = GroupGames(
                    local: store, membership: membership, userID: feed.settings.userID, clock: choice.clock,
                    calendar: feed.calendar)
                do throws(GroupStoreError) {
                    games = (
                        try await location.using { store throws(GroupStoreError) in try await reader.fetch(from: store)
                        },
                        false
                    )
                } catch {
                    games = (reader.cached(), true)
                }
                let sync = try? store.syncState()
                group = GroupLink.Status(
                    snapshot: shown?.snapshot, offline: shown?.offline ?? !refused, problem: nil,
                    lastSyncedAt: sync?.lastSyncedAt, unsyncedDays: sync?.unsyncedDays ?? 0)
            }
            let data = DashboardDataBuilder.make(feed: feed, now: choice.clock.now(), group: group)
            var report = StatusReport(feed: feed, data: data, group: group)
            report.include(
                store: store, settings: feed.settings, calendar: feed.calendar, now: choice.clock.now(),
                games: games.snapshot, offline: games.offline,
                names: Dictionary(
                    (group?.snapshot?.members ?? []).map { ($0.userID, $0.displayName.value) },
                    uniquingKeysWith: { first, _ in first }))
            print(json ? report.json() : report.text(data: data))
            return 0
        }
    }
}
