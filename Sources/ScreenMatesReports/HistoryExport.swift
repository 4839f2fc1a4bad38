import CSV
import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore

/// `screenmates export`: the finished days as CSV or JSON, each with its figures and how its
/// blocks were spread over the apps.
///
/// Hidden apps count in every figure, but their names appear only when asked for
/// (`includeHidden`); otherwise their blocks are summed under "(hidden)" per category, so an
/// export can be shared without naming them.
public struct HistoryExport: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case csv
        case json
    }

    /// One app's share of a day.
    public struct AppUsage: Codable, Hashable, Sendable {
        public var name: String
        public var category: String
        public var blocks: Int
        public var seconds: Int
        /// True for the "(hidden)" entry that stands for the hidden apps of a category.
        public var hidden: Bool
    }

    /// One finished day, as exported.
    public struct Day: Codable, Hashable, Sendable {
        public var date: String
        public var viceBlocks: Int
        public var productiveBlocks: Int
        public var goalBlocks: Int
        public var overLimit: Bool
        public var earnedSeconds: Int
        public var spentSeconds: Int
        public var endingBalanceSeconds: Int
        public var overdraftSeconds: Int
        public var streakAfter: Int
        public var synced: Bool
        public var apps: [AppUsage]
    }

    public var days: [Day]

    public init(days: [Day]) { self.days = days }

    /// The newest `limit` finished days of `home` (which has data) as `status` sees them: its
    /// config file applied first (`problem` is told each line it cannot use), on the real clock
    /// or the one a running dashboard publishes, with a daily reset that is due worked out but
    /// not written.
    public init(
        home: HomeDirectory, assets: AssetCatalog, timeZone: TimeZoneSource, limit: Int?, includeHidden: Bool,
        problem: (String) -> Void
    ) throws(AppError) {
        let catalogue = try assets.appCatalogue()
        do {
            let store = try home.openStore()
            for line in SettingsFile(home: home).apply(to: store, catalogue: catalogue) { problem(line) }
            let clock = try ClockSource.choose(
                speed: nil, startAt: nil, store: store, publish: false, timeZone: timeZone
            )
            .clock
            let feed = try FiguresReader(store: store, clock: clock, timeZone: timeZone, writes: false)
            try self.init(
                history: feed.history, store: store, settings: feed.settings, catalogue: catalogue,
                calendar: feed.calendar, limit: limit, includeHidden: includeHidden)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    /// The newest `limit` finished days of `history` (all without a limit), oldest first, with
    /// each day's apps read from its events.
    public init(
        history: [DayRecord], store: LocalStore, settings: UserSettings, catalogue: AppCatalogue,
        calendar: DayCalendar, limit: Int?, includeHidden: Bool
    ) throws(StoreError) {
        let chosen = limit.map { Array(history.suffix($0)) } ?? history
        var days: [Day] = []
        days.reserveCapacity(chosen.count)
        for record in chosen {
            // A pruned day's apps come from its summary; a day's events, where they are kept.
            let events = try store.events(in: record.interval ?? calendar.interval(of: record.date))
            let tallies =
                Self.tallies(events)
                + (try store.prunedAppUsage(on: record.date)).map {
                    AppTally(appID: $0.appID, category: $0.category, blocks: $0.blocks, seconds: $0.seconds)
                }
            days.append(
                Day(
                    date: record.date.iso8601, viceBlocks: record.viceBlocks, productiveBlocks: record.productiveBlocks,
                    goalBlocks: record.goalBlocks, overLimit: !record.keptLimit, earnedSeconds: record.earnedSeconds,
                    spentSeconds: record.spentSeconds, endingBalanceSeconds: record.endingBalanceSeconds,
                    overdraftSeconds: record.overdraftSeconds, streakAfter: record.streakAfter, synced: record.synced,
                    apps: Self.apps(tallies, settings: settings, catalogue: catalogue, includeHidden: includeHidden)))
        }
        self.days = days
    }

    /// One app's blocks and seconds on a day.
    struct AppTally {
        let appID: String
        let category: AppCategory
        let blocks: Int
        let seconds: Int
    }

    /// The events' blocks and seconds per app.
    static func tallies(_ events: [UsageEvent]) -> [AppTally] {
        var totals: [String: AppTally] = [:]
        for event in events {
            let key = "\(event.category.rawValue)\u{0}\(event.appID)"
            let before = totals[key]
            totals[key] = AppTally(
                appID: event.appID, category: event.category, blocks: (before?.blocks ?? 0) + 1,
                seconds: (before?.seconds ?? 0) + event.seconds)
        }
        return Array(totals.values)
    }

    /// Blocks and seconds per app; hidden apps summed per category unless `includeHidden`.
    static func apps(
        _ tallies: [AppTally], settings: UserSettings, catalogue: AppCatalogue, includeHidden: Bool
    ) -> [AppUsage] {
        var totals: [String: AppUsage] = [:]
        for tally in tallies {
            let tracked = settings.apps.first { $0.id == tally.appID }
            let hidden = tracked?.hidden == true && !includeHidden
            let name =
                hidden
                ? "(hidden)" : (tracked?.name ?? catalogue.apps.first { $0.id == tally.appID }?.name ?? tally.appID)
            let key = "\(tally.category.rawValue)\u{0}\(hidden ? "" : tally.appID)"
            var usage =
                totals[key]
                ?? AppUsage(name: name, category: tally.category.rawValue, blocks: 0, seconds: 0, hidden: hidden)
            usage.blocks += tally.blocks
            usage.seconds += tally.seconds
            totals[key] = usage
        }
        return totals.values.sorted {
            ($0.category == "vice" ? 0 : 1, -$0.blocks, $0.name) < ($1.category == "vice" ? 0 : 1, -$1.blocks, $1.name)
        }
    }

    /// The CSV columns, in order.
    public static let csvHeader = [
        "date", "vice_blocks", "productive_blocks", "goal_blocks", "over_limit", "earned_seconds", "spent_seconds",
        "ending_balance_seconds", "overdraft_seconds", "streak_after", "synced", "apps",
    ]

    /// The days as CSV (RFC 4180: a header row, CRLF line ends, fields with commas, quotes or
    /// line breaks quoted). The `apps` field lists `name blocks` pairs, separated by `; `.
    public func csv() -> String {
        let stream = OutputStream(toMemory: ())
        do {
            let writer = try CSVWriter(stream: stream, newline: .crlf)
            try writer.write(row: Self.csvHeader)
            for day in days {
                try writer.write(row: [
                    day.date, String(day.viceBlocks), String(day.productiveBlocks), String(day.goalBlocks),
                    String(day.overLimit), String(day.earnedSeconds), String(day.spentSeconds),
                    String(day.endingBalanceSeconds), String(day.overdraftSeconds), String(day.streakAfter),
                    String(day.synced), day.apps.map { "\($0.name) \($0.blocks)" }.joined(separator: "; "),
                ])
            }
            writer.stream.close()
        } catch {
            // A stream in memory does not fail to open or to take bytes.
            preconditionFailure("writing CSV to memory failed: \(error)")
        }
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return String(decoding: data, as: UTF8.self) + "\r\n"
    }

    /// The days as a JSON array of day objects.
    public func json() -> String {
        // Foundation pretty-prints an empty array over three lines.
        guard !days.isEmpty else { return "[]\n" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(days)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    public func text(_ format: Format) -> String {
        switch format {
        case .csv: csv()
        case .json: json()
        }
    }
}
