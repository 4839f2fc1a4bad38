import Foundation
import Logging
import ScreenMatesActivityWatch
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesStore

/// `screenmates import activitywatch`: brings past days in from ActivityWatch.
///
/// Each day is derived exactly as the follower derives it (the same blocks, the same ids), so
/// importing twice, or importing days a follower already wrote, adds nothing; then the daily
/// reset runs, so every imported day gets its history row, streak and sparkline entry.
public struct ActivityWatchImport: Sendable {
    /// What an import did.
    public struct Summary: Sendable {
        public var host: String
        public var firstDay: LocalDate
        public var lastDay: LocalDate
        /// Days with at least one block.
        public var daysWithBlocks: Int
        public var viceBlocks: Int
        public var productiveBlocks: Int
        /// Blocks that were already in the store (imported or followed before).
        public var alreadyThere: Int
        /// Applications seen that match no tracked app, with their active seconds.
        public var unplaced: [(name: String, seconds: Int)]
        public var eventsRead: Int
        public var eventsSkipped: Int
        public var focusOnly: Bool
    }

    let store: LocalStore
    let catalogue: AppCatalogue
    let options: ActivityWatchOptions
    /// The home's clock (the system's, or a simulated one the home's dashboard publishes).
    let clock: any AppClock

    /// The zone the home's days are counted in.
    let timeZone: TimeZoneSource

    public init(home: HomeDirectory, assets: AssetCatalog, options: ActivityWatchOptions, timeZone: TimeZoneSource)
        throws(AppError)
    {
        let opened = try OpenedHome.forRecording(home: home, assets: assets, timeZone: timeZone, command: "the import")
        self.timeZone = timeZone
        store = opened.store
        clock = opened.clock.clock
        catalogue = opened.catalogue
        self.options = options
    }

    /// The longest an import reaches back.
    public static let maximumDays = 3660

    /// Imports every day from `since` (default: the day of the window bucket's first event, at
    /// most `maximumDays` ago) through today.
    public func run(since: LocalDate?) async throws(AppError) -> Summary {
        let now = clock.now()
        let client = try options.client(timeout: .seconds(120))
        let selection: ActivityWatchSelection
        do {
            _ = try await client.info()
            selection = try await options.select(with: client)
        } catch {
            throw AppError(error)
        }
        guard let settings = try storeCall({ try store.settings() }) else {
            throw AppError("The profile is gone; run `screenmates setup --name NAME` first.")
        }
        let deriver = blockDeriver(
            settings: settings, catalogue: catalogue, host: selection.host, timeZone: timeZone.current())
        let calendar = deriver.calendar
        let today = calendar.day(containing: now)
        var first: LocalDate
        if let since {
            first = since
        } else {
            first = try await firstDay(of: selection.window.id, client: client, calendar: calendar, today: today)
        }
        if first > today {
            throw .usage("--since \(first) is after today (\(today)): there is nothing to import yet.")
        }
        first = max(first, today.adding(days: -Self.maximumDays))

        var summary = Summary(
            host: selection.host, firstDay: first, lastDay: today, daysWithBlocks: 0, viceBlocks: 0,
            productiveBlocks: 0, alreadyThere: 0, unplaced: [], eventsRead: 0, eventsSkipped: 0,
            focusOnly: selection.afk == nil)
        var unplaced: [String: Int] = [:]
        var day = first
        while day <= today {
            let interval = calendar.interval(of: day)
            let window = interval.lowerBound..<min(interval.upperBound, now)
            var timeline = ActivityTimeline(focus: [], present: selection.afk == nil ? nil : [])
            do {
                let windows = try await client.events(bucket: selection.window.id, in: window)
                summary.eventsRead += windows.events.count
                summary.eventsSkipped += windows.skipped
                timeline.focus = windows.events.compactMap { event in
                    guard let app = event.app, let span = TimeSpan(start: event.timestamp, seconds: event.duration)
                    else { return nil }
                    return FocusSpan(span: span, app: app, title: event.title ?? "")
                }
                if let afk = selection.afk {
                    let presence = try await client.events(bucket: afk.id, in: window)
                    summary.eventsRead += presence.events.count
                    summary.eventsSkipped += presence.skipped
                    timeline.present = presence.events.compactMap { event in
                        event.status == "not-afk" ? TimeSpan(start: event.timestamp, seconds: event.duration) : nil
                    }
                }
            } catch {
                throw AppError(error)
            }
            let usage = deriver.derive(timeline, day: day, until: now)
            if !usage.events.isEmpty {
                let inserted = try storeCall { try store.record(usage.events) }
                summary.daysWithBlocks += 1
                summary.viceBlocks += usage.events.filter { $0.category == .vice }.count
                summary.productiveBlocks += usage.events.filter { $0.category == .productive }.count
                summary.alreadyThere += usage.events.count - inserted
            }
            let seen = usage.unplacedMilliseconds.mapValues { Int($0 / 1000) }.filter { $0.value > 0 }
            try storeCall {
                try store.recordSeenApps(day: day, source: ActivityWatchOptions.sourceName, seconds: seen, seenAt: now)
            }
            for (name, seconds) in seen { unplaced[SeenApp.storableName(name), default: 0] += seconds }
            day = day.adding(days: 1)
        }
        // Archive the imported days now: history rows, streaks, the sparkline.
        _ = try storeCall { try store.rollOver(clockDay: today, calendar: calendar, now: now) }
        summary.unplaced = unplaced.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
        return summary
    }

    /// The day of the bucket's first event (today when it has none), found by halving: a few
    /// counts instead of reading years of events.
    private func firstDay(of bucket: String, client: ActivityWatchClient, calendar: DayCalendar, today: LocalDate)
        async throws(AppError) -> LocalDate
    {
        var low = today.adding(days: -Self.maximumDays)
        var high = today
        do {
            func hasEvents(through day: LocalDate) async throws(ActivityWatchError) -> Bool {
                try await client.eventCount(bucket: bucket, upTo: calendar.start(of: day.adding(days: 1))) > 0
            }
            guard try await hasEvents(through: high) else { return today }
            while low < high {
                let middle = low.adding(days: low.days(to: high) / 2)
                if try await hasEvents(through: middle) { high = middle } else { low = middle.adding(days: 1) }
            }
        } catch {
            throw AppError(error)
        }
        return low
    }

    private func storeCall<T>(_ body: () throws -> T) throws(AppError) -> T {
        do {
            return try body()
        } catch {
            throw AppError(error)
        }
    }
}
