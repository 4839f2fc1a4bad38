import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesStore

extension StatusReport {
    /// The dashboard's numbers for `home` (which has data), as `screenmates status` prints them,
    /// and the same for a person reading a terminal. It writes nothing: the group is only read
    /// (or taken as cached when its store is out of reach), and a daily reset that is due is
    /// worked out, not written. `problem` is told what stands in the way: each line of the config
    /// file it cannot use, and why the group could not be read.
    public static func read(
        home: HomeDirectory, groupStore: GroupStoreChoice, speed: Double?, startAt: Date?, timeZone: TimeZoneSource,
        problem: (String) -> Void
    ) async throws(AppError) -> (report: StatusReport, text: String) {
        try home.requireData()
        let store: LocalStore
        let feed: FiguresReader
        let choice: ClockSource.Choice
        do {
            store = try home.openStore()
            // The config file wins for the keys it sets, here as everywhere.
            let catalogue =
                (try? AssetCatalog.locate(environment: ProcessInfo.processInfo.environment).appCatalogue())
                ?? AppCatalogue(apps: [], defaultVice: [], defaultProductive: [])
            for line in SettingsFile(home: home).apply(to: store, catalogue: catalogue) { problem(line) }
            choice = try ClockSource.choose(
                speed: speed, startAt: startAt, store: store, publish: false, timeZone: timeZone)
            feed = try FiguresReader(store: store, clock: choice.clock, timeZone: timeZone, writes: false)
        } catch {
            throw AppError(error)
        }
        // The group as the store has it now (read only), or as cached when it is unreachable.
        var group: GroupLink.Status?
        var games: (snapshot: GroupGamesSnapshot?, offline: Bool) = (nil, false)
        if let membership = feed.settings.group {
            let location = try groupStore.location(home: home, settings: feed.settings)
            let actions = GroupActions(local: store, location: location, clock: choice.clock, timeZone: timeZone)
            // Unreachable with nothing cached, or refused (a login…): `problem` hears why, and a
            // refusal is not called out of reach.
            var shown: (snapshot: GroupSnapshot, offline: Bool)?
            var refused = false
            do throws(GroupActions.Failure) {
                shown = try await actions.showExplained()
            } catch {
                if case .store(let storeError) = error { refused = !storeError.isTransient }
                problem(error.message)
            }
            // The group's games, only read: `status` reports nothing.
            let reader = GroupGames(
                local: store, membership: membership, userID: feed.settings.userID, clock: choice.clock,
                calendar: feed.calendar)
            do throws(GroupStoreError) {
                games = (
                    try await location.using { store throws(GroupStoreError) in try await reader.fetch(from: store) },
                    false
                )
            } catch {
                games = (reader.cached(), true)
            }
            let sync = try? store.syncState()
            group = GroupLink.Status(
                snapshot: shown?.snapshot, offline: shown?.offline ?? !refused, problem: nil,
                lastSyncedAt: sync?.lastSyncedAt, unsyncedDays: sync?.unsyncedDays ?? 0)
            if shown?.offline == false {
                group?.following = await location.following(code: membership.code)
            }
        }
        // The boards of the open challenges the user joined, only read.
        var open: OpenBoards?
        if let reader = OpenChallenges.joined(
            local: store, settings: feed.settings, clock: choice.clock, calendar: feed.calendar),
            let location = try? groupStore.location(home: home, settings: feed.settings)
        {
            do throws(GroupStoreError) {
                open = try await location.using { store throws(GroupStoreError) in
                    try await reader.exchange(with: store, exchanging: false)
                }
            } catch {
                open = reader.cached()
                open?.offline = true
            }
        }
        let data = DashboardContentBuilder.make(feed: feed, now: choice.clock.now(), group: group)
        var report = StatusReport(feed: feed, data: data, group: group)
        report.include(
            store: store, settings: feed.settings, calendar: feed.calendar, now: choice.clock.now(),
            games: games.snapshot, offline: games.offline,
            names: Dictionary(
                (group?.snapshot?.members ?? []).map { ($0.userID, $0.displayName.value) },
                uniquingKeysWith: { first, _ in first }), open: open)
        return (report, report.text(data: data))
    }
}
