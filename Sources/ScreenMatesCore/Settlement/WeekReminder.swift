import Foundation

/// The reminder a member with unsynced days gets before their group's week closes: days the
/// group store has not seen by then count as the group's rule says (they wait, or they cost as
/// days over the limit).
public enum WeekReminder {
    /// The words, or nil when nothing is waiting. `unsyncedDays` are finished days whose totals
    /// have not reached the group store.
    public static func text(unsyncedDays: Int, today: LocalDate, rules: SettlementRules) -> String? {
        guard unsyncedDays > 0 else { return nil }
        let closes = rules.firstDay(ofWeekContaining: today).adding(days: 7)
        let left = today.days(to: closes)
        let when =
            left <= 1
            ? "at the end of today"
            : "in \(left) days (\(SettlementRules.weekdayNames[closes.isoWeekday - 1].capitalized))"
        let days = "\(unsyncedDays) day\(unsyncedDays == 1 ? "" : "s")"
        let consequence =
            switch rules.missingDays {
            case .pending: "the week waits for them"
            case .worstCase: "each costs as a day over the limit"
            }
        return "\(days) not sent to the group; the week closes \(when): sync before then, or \(consequence)."
    }
}
