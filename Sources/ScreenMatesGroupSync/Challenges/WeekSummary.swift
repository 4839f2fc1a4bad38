import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome

/// The group's weeks as `week --json` and `status --json` print them: the rules, the week in
/// progress, and each member's result for the weeks shown, newest first. Keys may be added,
/// never renamed.
public struct WeekSummary: Encodable, Sendable {
    public struct Result: Encodable, Sendable {
        public var week, name, status, rule: String
        public var isMe: Bool
        public var keptDays, overDays, missingDays, coins: Int
        @Nullable public var settledAt: String?
    }

    /// The weekday weeks start on (`monday`…).
    public var weekStart: String
    /// The current week's first day, and the day it closes (when the next one begins).
    public var currentWeek, closesOn: String
    public var keptDayCoins, overDayCoins: Int
    /// `pending` or `worst-case`.
    public var missingDays: String
    /// A change of the rates a member made, from the first day of the week it takes effect from.
    public struct Change: Encodable, Sendable {
        public var from: String
        public var keptDayCoins, overDayCoins: Int
        public var missingDays: String
    }
    @Nullable public var nextRules: Change?
    /// Finished days of this member the group store has not seen yet.
    public var unsyncedDays: Int
    @Nullable public var reminder: String?
    public var offline: Bool
    public var results: [Result]

    public init(
        snapshot: GroupGamesSnapshot, names: [UserID: String], me: UserID, today: LocalDate, unsyncedDays: Int,
        offline: Bool
    ) {
        let rules = snapshot.schedule.rules(on: today)
        let current = rules.firstDay(ofWeekContaining: today)
        nextRules = snapshot.schedule.upcoming(after: today).map { change in
            Change(
                from: change.from.iso8601, keptDayCoins: change.rules.keptDayCoins,
                overDayCoins: change.rules.overDayCoins, missingDays: change.rules.missingDays.rawValue)
        }
        weekStart = rules.weekStartName
        currentWeek = current.iso8601
        closesOn = current.adding(days: 7).iso8601
        keptDayCoins = rules.keptDayCoins
        overDayCoins = rules.overDayCoins
        missingDays = rules.missingDays.rawValue
        self.unsyncedDays = unsyncedDays
        reminder = WeekReminder.text(unsyncedDays: unsyncedDays, today: today, rules: rules)
        self.offline = offline
        results = snapshot.weeks.sorted { a, b in
            a.week != b.week
                ? a.week > b.week : (names[a.userID] ?? a.userID.value) < (names[b.userID] ?? b.userID.value)
        }
        .map { result in
            Result(
                week: result.week.iso8601, name: names[result.userID] ?? result.userID.value,
                status: result.status.rawValue, rule: result.rule.rawValue, isMe: result.userID == me,
                keptDays: result.tally.keptDays, overDays: result.tally.overDays,
                missingDays: result.tally.missingDays, coins: result.coins,
                settledAt: result.settledAt.map(TimeFormat.iso8601))
        }
    }

    /// For a person at a terminal.
    public func text() -> String {
        func rates(kept: Int, over: Int, missing: String) -> String {
            "a kept day +\(kept) coins, a day over -\(over); days not sent by the close: "
                + "\(missing == "pending" ? "the week waits for them" : "charged as over")."
        }
        var lines = [
            "Weeks start on \(weekStart.capitalized): "
                + rates(kept: keptDayCoins, over: overDayCoins, missing: missingDays)
        ]
        if let next = nextRules {
            lines.append(
                "From the week of \(next.from): "
                    + rates(kept: next.keptDayCoins, over: next.overDayCoins, missing: next.missingDays))
        }
        lines.append(
            "This week: \(currentWeek), closes \(closesOn)."
                + (offline ? " (The group store is out of reach: as last seen.)" : ""))
        if let reminder { lines.append(reminder) }
        if results.isEmpty { lines.append("No week settled yet.") }
        var week = ""
        for result in results {
            if result.week != week {
                week = result.week
                lines.append("Week of \(week):")
            }
            let name = SafeText.padded(result.name + (result.isMe ? " (you)" : ""), toCells: 24)
            let coins =
                result.status == "pending"
                ? "waiting for \(result.missingDays) day\(result.missingDays == 1 ? "" : "s")"
                : (result.coins >= 0 ? "+\(result.coins)" : "\(result.coins)") + " coins"
            var counts = "\(result.keptDays) kept, \(result.overDays) over"
            if result.missingDays > 0 && result.status == "settled" { counts += ", \(result.missingDays) not sent" }
            lines.append("  \(name)  \(counts.padding(toLength: 26, withPad: " ", startingAt: 0))  \(coins)")
        }
        return lines.joined(separator: "\n")
    }
}
