import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// A member as a group store holds them, to put back in a home (`screenmates restore`).
public struct RestoredMember: Hashable, Sendable {
    /// One finished day as the group has it: vice blocks against the goal, nothing more.
    public struct Day: Hashable, Sendable {
        public var date: LocalDate
        public var viceBlocks: Int
        public var goalBlocks: Int

        public init(date: LocalDate, viceBlocks: Int, goalBlocks: Int) {
            self.date = date
            self.viceBlocks = viceBlocks
            self.goalBlocks = goalBlocks
        }
    }

    public var userID: UserID
    public var displayName: DisplayName
    public var membership: GroupMembership
    /// The newest profile version the group store holds: this home's next one must be higher.
    public var version: Int64
    public var days: [Day]

    public init(
        userID: UserID, displayName: DisplayName, membership: GroupMembership, version: Int64, days: [Day]
    ) {
        self.userID = userID
        self.displayName = displayName
        self.membership = membership
        self.version = version
        self.days = days
    }
}

extension LocalStore {
    /// Puts `member` back in this home, in one transaction: the profile (made now, first day
    /// today, with `apps`, when there is none; a profile of another user id is refused), the
    /// name and the group, a member version above the store's, and each finished day the group
    /// holds that the history lacks, as history already synced. The first tracked day moves
    /// back to the earliest of them, and the streaks are counted again over them. Days the
    /// history has are kept as they are: this home's own events decided them.
    public func restore(_ member: RestoredMember, apps: [TrackedApp], calendar: DayCalendar, now: Date)
        throws(StoreError) -> UserSettings
    {
        try write { db in
            let today = calendar.day(containing: now)
            if let existing = try Self.settings(db) {
                guard existing.userID == member.userID else {
                    throw StoreError.invalidValue(
                        "This home belongs to user id \(existing.userID), not \(member.userID): restore into a new home "
                            + "(`--home DIR`).")
                }
            } else {
                _ = try Self.createProfile(userID: member.userID, trackingStart: today, apps: apps, now: now, db)
            }
            try db.execute(
                sql: """
                    UPDATE profile SET display_name = ?, group_code = ?, group_goal_blocks = ?, group_store = ?,
                        member_version = max(member_version, ?), profile_synced_version = max(profile_synced_version, ?)
                    WHERE id = 1
                    """,
                arguments: [
                    member.displayName.value, member.membership.code.value, member.membership.dailyGoalBlocks,
                    member.membership.store, member.version, member.version,
                ])
            guard var state = try Self.dayState(db) else { return try Self.settings(db)! }
            let lastReset = state.lastReset ?? today
            let floor = lastReset.adding(days: -DailyRollover.maximumArchivedGap)
            let present = Set(try String.fetchAll(db, sql: "SELECT date FROM day_history"))
            for day in member.days where day.date < lastReset && day.date >= floor {
                guard !present.contains(day.date.iso8601) else { continue }
                let interval = calendar.start(of: day.date)..<calendar.start(of: day.date.adding(days: 1))
                try db.execute(
                    sql: """
                        INSERT INTO day_history (date, vice_blocks, productive_blocks, goal_blocks, earned_seconds,
                            spent_seconds, ending_balance_seconds, overdraft_seconds, streak_after, synced,
                            archived_at, start_at, end_at, origin)
                        VALUES (?, ?, 0, ?, 0, 0, 0, 0, 0, 1, ?, ?, ?, 'restored')
                        """,
                    arguments: [
                        day.date.iso8601, max(0, day.viceBlocks), max(0, day.goalBlocks), Self.milliseconds(now),
                        Self.milliseconds(interval.lowerBound), Self.milliseconds(interval.upperBound),
                    ])
                state.trackingStart = min(state.trackingStart, day.date)
            }
            try db.execute(
                sql: "UPDATE profile SET tracking_start = ? WHERE id = 1", arguments: [state.trackingStart.iso8601])
            _ = try Self.restreak(through: lastReset.adding(days: -1), from: state.trackingStart, db)
            return try Self.settings(db)!
        }
    }
}
