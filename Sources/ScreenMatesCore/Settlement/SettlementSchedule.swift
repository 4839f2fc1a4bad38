import Foundation

/// A change of a group's settlement rates (what a kept day earns, what a day over costs, what
/// a missing day counts as), from the first day of the first week it governs.
public struct SettlementRulesChange: Hashable, Sendable, Codable {
    /// The first day of the first week settled by `rules`.
    public var from: LocalDate
    public var rules: SettlementRules

    public init(from: LocalDate, rules: SettlementRules) {
        self.from = from
        self.rules = rules
    }
}

/// A group's settlement rules over time: a week is settled by the rules it started with.
///
/// A member changes the rates for the weeks that have not begun anywhere on Earth when the
/// change is made (`firstUnbegunWeek`); the weeks already running, and the closed ones still
/// waiting for their settlement, keep theirs, so no member can settle the others' weeks under
/// rules of the moment. Only while the one changing them is the group's only member do the
/// rules change at once: no one else's week is touched. The week start is the group's own
/// (`SettlementRules.weekStart` of `rules`), fixed once a week has been settled.
///
/// Both group stores keep a schedule this way: `rules` as the group's own, and the changes still
/// to come; a settlement folds the changes its weeks have reached into `rules` (`folded`).
public struct SettlementSchedule: Hashable, Sendable, Codable {
    /// The rules of every week before the first change.
    public var rules: SettlementRules
    /// Later rates, oldest first, each from a later week than the one before.
    public var changes: [SettlementRulesChange]

    public init(rules: SettlementRules, changes: [SettlementRulesChange] = []) {
        self.rules = rules
        self.changes = changes.sorted { $0.from < $1.from }
    }

    /// The rules of the week that starts on `first` (or of any week holding it).
    public func rules(forWeek first: LocalDate) -> SettlementRules {
        var found = rules
        for change in changes where change.from <= first { found.setRates(from: change.rules) }
        return found
    }

    /// The rules of the week holding `day`.
    public func rules(on day: LocalDate) -> SettlementRules {
        rules(forWeek: rules.firstDay(ofWeekContaining: day))
    }

    /// The rules set last: those every week will have once the changes waiting have begun.
    public var latest: SettlementRules {
        var found = rules
        if let last = changes.last { found.setRates(from: last.rules) }
        return found
    }

    /// The first change still to come for a member whose day is `today`, if any.
    public func upcoming(after today: LocalDate) -> SettlementRulesChange? {
        let current = rules.firstDay(ofWeekContaining: today)
        return changes.first { $0.from > current }
    }

    /// The first day of the first week, as a group whose weeks start on `weekStart` counts them,
    /// that has begun nowhere on Earth at `now`: the week after the one holding the latest date
    /// anywhere (UTC+14).
    public static func firstUnbegunWeek(at now: Date, weekStart: Int) -> LocalDate {
        let latestDay = LocalDate(dayNumber: Int(((now.timeIntervalSince1970 + 50_400) / 86_400).rounded(.down)))
        let grid = SettlementRules(weekStart: weekStart, keptDayCoins: 0, overDayCoins: 0, missingDays: .pending)
        return grid.firstDay(ofWeekContaining: latestDay).adding(days: 7)
    }

    /// The schedule once `wanted` is set at `now`: its week start at once (the caller has checked
    /// that no week was settled), its rates at once when `atOnce` (the one setting them is the
    /// group's only member), else from `firstUnbegunWeek`, replacing every change from that week
    /// on. Answers the first day of the week the rates take effect from (nil: at once).
    @discardableResult
    public mutating func set(_ wanted: SettlementRules, at now: Date, atOnce: Bool) -> LocalDate? {
        rules.weekStart = wanted.weekStart
        guard !atOnce else {
            rules = wanted
            changes = []
            return nil
        }
        let from = Self.firstUnbegunWeek(at: now, weekStart: wanted.weekStart)
        changes.removeAll { $0.from >= from }
        if !rules(forWeek: from).hasSameRates(as: wanted) {
            changes.append(SettlementRulesChange(from: from, rules: wanted))
        }
        return from
    }

    /// The schedule once every week before the one holding `today` is settled: the changes
    /// reached by then are the group's own rules.
    public func folded(today: LocalDate) -> SettlementSchedule {
        let current = rules.firstDay(ofWeekContaining: today)
        return SettlementSchedule(rules: rules(forWeek: current), changes: changes.filter { $0.from > current })
    }
}

extension SettlementRules {
    /// The rates and the missing-days rule of `other`; the week start stays.
    mutating func setRates(from other: SettlementRules) {
        keptDayCoins = other.keptDayCoins
        overDayCoins = other.overDayCoins
        missingDays = other.missingDays
    }

    /// Whether `other` settles a week the same way (the week start aside).
    public func hasSameRates(as other: SettlementRules) -> Bool {
        keptDayCoins == other.keptDayCoins && overDayCoins == other.overDayCoins && missingDays == other.missingDays
    }
}
