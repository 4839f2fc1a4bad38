import Foundation
import ScreenMatesCore

/// A row as a group store holds it — plain numbers and text, as any engine decodes them — before
/// anything in it is believed: another member may have written it, by hand.
///
/// `checked()` is the one place a reader turns it into the value the app uses, or says why it
/// cannot (`LeftOutRow`). Every engine's reader builds one of these from each row it decodes and
/// passes it through a `GroupRowFilter`, so a SQLite file and a PostgreSQL server leave out the
/// same rows for the same reasons.
public protocol StoredGroupRow: Sendable {
    associatedtype Value
    func checked() throws(LeftOutRow) -> Value
}

/// Checks of one row's fields, each failing with the row named.
struct RowCheck {
    let kind: LeftOutRow.Kind
    let key: String

    func fail(_ reason: String) -> LeftOutRow { LeftOutRow(kind, key: key, reason: reason) }

    func userID(_ text: String, column: String = "user_id") throws(LeftOutRow) -> UserID {
        guard let id = try? UserID(validating: text) else {
            throw fail("\(column) \(LeftOutRow.quoted(text)) is not a user id")
        }
        return id
    }

    func name(_ text: String, column: String = "display_name") throws(LeftOutRow) -> DisplayName {
        do {
            return try DisplayName(validating: text)
        } catch {
            throw fail("\(column) \(LeftOutRow.quoted(text)): \(error.message)")
        }
    }

    func count(_ value: Int64, _ column: String, in range: ClosedRange<Int>, what: String) throws(LeftOutRow) -> Int {
        guard value >= range.lowerBound, value <= range.upperBound else {
            throw fail("\(column) is \(value); \(what) \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(value)
    }

    func date(_ dayNumber: Int64, _ column: String) throws(LeftOutRow) -> LocalDate {
        let range = GroupStoreRules.storableDayNumbers
        guard dayNumber >= range.lowerBound, dayNumber <= range.upperBound else {
            throw fail("\(column) is day number \(dayNumber), outside the years 1 to 9999")
        }
        return LocalDate(dayNumber: Int(dayNumber))
    }

    func instant(_ milliseconds: Int64, _ column: String) throws(LeftOutRow) -> Date {
        guard GroupStoreRules.storableMilliseconds.contains(milliseconds) else {
            throw fail("\(column) is \(milliseconds) ms, not an instant of the years a store keeps")
        }
        return StoredInstant.date(milliseconds: milliseconds)
    }

    func optionalInstant(_ milliseconds: Int64?, _ column: String) throws(LeftOutRow) -> Date? {
        guard let milliseconds else { return nil }
        return try instant(milliseconds, column)
    }

    func word<Word: RawRepresentable<String>>(_ text: String, _ column: String, as: Word.Type) throws(LeftOutRow)
        -> Word
    {
        guard let word = Word(rawValue: text) else {
            throw fail("\(column) \(LeftOutRow.quoted(text)) is not one this version knows")
        }
        return word
    }
}

/// A group's own row: its goal, size and creation. A reader that cannot believe it cannot show
/// the group at all, so it reports the group as unusable (naming why) rather than leaving it out.
public struct StoredGroup: StoredGroupRow {
    public var code: String
    public var dailyGoalBlocks: Int64
    public var memberCount: Int64
    public var createdAt: Int64

    public init(code: String, dailyGoalBlocks: Int64, memberCount: Int64, createdAt: Int64) {
        self.code = code
        self.dailyGoalBlocks = dailyGoalBlocks
        self.memberCount = memberCount
        self.createdAt = createdAt
    }

    public func checked() throws(LeftOutRow) -> Group {
        let check = RowCheck(kind: .group, key: code)
        guard let groupCode = try? GroupCode(validating: code) else {
            throw check.fail("code \(LeftOutRow.quoted(code)) is not a group code")
        }
        let goal = try check.count(
            dailyGoalBlocks, "daily_goal_blocks", in: UsageRules.dailyGoalRange, what: "a daily goal is")
        let members = try check.count(memberCount, "member count", in: 0...Int(Int32.max), what: "a group has")
        return Group(
            code: groupCode, dailyGoalBlocks: goal, memberCount: members,
            createdAt: try check.instant(createdAt, "created_at"))
    }
}

/// A member's profile in a group.
public struct StoredMember: StoredGroupRow {
    public var userID: String
    public var displayName: String
    public var blocksToday: Int64
    /// Day number (days since 1970-01-01).
    public var day: Int64
    public var streak: Int64
    /// Milliseconds since 1970, as are all instants here.
    public var lastActive: Int64?
    public var lastUpdated: Int64
    public var version: Int64

    public init(
        userID: String, displayName: String, blocksToday: Int64, day: Int64, streak: Int64, lastActive: Int64?,
        lastUpdated: Int64, version: Int64
    ) {
        self.userID = userID
        self.displayName = displayName
        self.blocksToday = blocksToday
        self.day = day
        self.streak = streak
        self.lastActive = lastActive
        self.lastUpdated = lastUpdated
        self.version = version
    }

    public func checked() throws(LeftOutRow) -> MemberProfile {
        let check = RowCheck(kind: .member, key: userID)
        return MemberProfile(
            userID: try check.userID(userID), displayName: try check.name(displayName),
            blocksToday: try check.count(
                blocksToday, "blocks_today", in: GroupStoreRules.blocksPerDayRange, what: "a day holds"),
            day: try check.date(day, "day"),
            streak: try check.count(streak, "streak", in: GroupStoreRules.streakRange, what: "a streak is"),
            lastActive: try check.optionalInstant(lastActive, "last_active"),
            lastUpdated: try check.instant(lastUpdated, "last_updated"), version: version)
    }
}

/// One member's total for one day.
public struct StoredDayTotal: StoredGroupRow {
    public var userID: String
    public var date: Int64
    public var viceBlocks: Int64
    public var goalBlocks: Int64
    public var version: Int64

    public init(userID: String, date: Int64, viceBlocks: Int64, goalBlocks: Int64, version: Int64) {
        self.userID = userID
        self.date = date
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
        self.version = version
    }

    /// "bo234567 2026-11-17", or the day number where it is no date.
    var key: String {
        let range = GroupStoreRules.storableDayNumbers
        let inRange = date >= range.lowerBound && date <= range.upperBound
        let day = inRange ? LocalDate(dayNumber: Int(date)).iso8601 : "day number \(date)"
        return "\(userID) \(day)"
    }

    public func checked() throws(LeftOutRow) -> DayTotal {
        let check = RowCheck(kind: .dayTotal, key: key)
        return DayTotal(
            userID: try check.userID(userID), date: try check.date(date, "date"),
            viceBlocks: try check.count(
                viceBlocks, "vice_blocks", in: GroupStoreRules.blocksPerDayRange, what: "a day holds"),
            goalBlocks: try check.count(goalBlocks, "goal_blocks", in: GroupStoreRules.dayGoalRange, what: "a goal is"),
            version: version)
    }
}
