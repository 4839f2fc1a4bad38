import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// `screenmates recover`: rescues what a damaged local database still holds.
public enum RecoverySession {
    public static func run(home: HomeDirectory, timeZone: TimeZoneSource) throws(AppError) -> String {
        let path = home.databasePath
        try home.requireData()
        // A database that opens and passes its checks needs no rescue.
        if (try? home.openStore()) != nil {
            return "\(path) is not damaged; nothing to recover."
        }
        let report: RecoveryReport
        do {
            report = try StoreRecovery.recover(at: path, clock: SystemClock(), timeZone: timeZone.current())
        } catch {
            throw AppError(error)
        }
        var lines = ["Recovered \(path):"]
        lines.append(
            "  \(report.eventsSaved) usage event\(report.eventsSaved == 1 ? "" : "s") saved"
                + (report.eventsLost > 0 ? ", \(report.eventsLost) unreadable" : ""))
        lines.append(
            report.profileSaved
                ? "  your profile and \(report.appsSaved) tracked apps saved"
                : "  the profile could not be read: the next start asks for your name again")
        lines.append("  \(report.daysRebuilt) days of history derived again from the events")
        lines.append("The damaged database is kept as \(report.damagedCopy) (with its -wal/-shm files, if any).")
        return lines.joined(separator: "\n")
    }
}
