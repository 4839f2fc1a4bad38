import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// `screenmates prune`: the events of a home's old, archived days folded into their day rows, so
/// the database stays small for years (`LocalStore.prune`).
public enum HomePruning {
    /// The days a prune keeps when none are named.
    public static let defaultKeptDays = 90

    /// Prunes `home` (which has data) on the real clock or the one a running dashboard publishes,
    /// after the daily reset that is due: every day older than the last `keepDays` is folded.
    public static func prune(home: HomeDirectory, keepDays: Int, timeZone: TimeZoneSource) throws(AppError)
        -> PruneReport
    {
        guard keepDays >= LocalStore.minimumKeptDays else {
            throw .usage(
                "--keep-days must be \(LocalStore.minimumKeptDays) or more (the last days always keep their events); \(keepDays) is not."
            )
        }
        do {
            let store = try home.openStore()
            let clock = try ClockSource.choose(
                speed: nil, startAt: nil, store: store, publish: false, timeZone: timeZone
            )
            .clock
            // Reading the figures runs the reset that is due, so every finished day is archived.
            let feed = try FiguresReader(store: store, clock: clock, timeZone: timeZone)
            return try store.prune(keepDays: keepDays, today: feed.today, calendar: feed.calendar)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    /// What a prune did, in a sentence.
    public static func summary(_ report: PruneReport) -> String {
        let kept = report.keptFrom.map { " Events are kept from \($0) on." } ?? ""
        guard let first = report.days.first, let last = report.days.last else {
            return "Nothing to prune: no finished day is older than the days kept.\(kept)"
        }
        let days = report.days.count
        let range = first == last ? "\(first)" : "\(first) to \(last)"
        return
            "Pruned \(days) day\(days == 1 ? "" : "s") (\(range)): \(report.events) event\(report.events == 1 ? "" : "s") "
            + "folded into their day rows.\(kept) The database went from \(kibibytes(report.bytesBefore)) to "
            + "\(kibibytes(report.bytesAfter))."
    }

    private static func kibibytes(_ bytes: Int64) -> String {
        bytes >= 10 * 1_048_576 ? "\(bytes / 1_048_576) MiB" : "\(bytes / 1024) KiB"
    }
}
