import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// The group as this machine last saw it: what the dashboard opens on at once and shows while
/// the group store cannot be reached. Stored as JSON, since it is read and written whole.
public struct GroupCacheEntry: Hashable, Sendable {
    public var code: GroupCode
    /// The encoded snapshot (the app decides what it holds).
    public var snapshot: Data
    public var fetchedAt: Date

    public init(code: GroupCode, snapshot: Data, fetchedAt: Date) {
        self.code = code
        self.snapshot = snapshot
        self.fetchedAt = fetchedAt
    }
}

/// Where reporting to the group stands.
public struct SyncState: Hashable, Sendable {
    /// When the profile last reached the group store.
    public var lastSyncedAt: Date?
    /// Finished days whose totals have not reached the group store.
    public var unsyncedDays: Int
    /// The newest member version handed out, and the newest one the group store has.
    public var memberVersion: Int64
    public var syncedVersion: Int64
}

extension LocalStore {
    /// Records membership of a group (or none), with the group's daily goal. Joining another
    /// group marks every finished day of this machine's unsynced, so the new group gets its whole
    /// history.
    public func setGroup(_ membership: GroupMembership?) throws(StoreError) {
        try write { db in
            let current = try String.fetchOne(db, sql: "SELECT group_code FROM profile WHERE id = 1")
            try db.execute(
                sql: "UPDATE profile SET group_code = ?, group_goal_blocks = ?, group_store = ? WHERE id = 1",
                arguments: [membership?.code.value, membership?.dailyGoalBlocks, membership?.store])
            if membership?.code.value != current {
                // The other machines' days were the old group's.
                try Self.forgetOtherMachines(db)
            }
            if let membership, membership.code.value != current {
                // Only the machine's own days: a day restored from a group is the member's sum over
                // all their machines, which each machine sends its own part of.
                try db.execute(sql: "UPDATE day_history SET synced = 0 WHERE origin = 'own'")
                try db.execute(sql: "UPDATE profile SET profile_synced_version = 0, last_synced_at = NULL WHERE id = 1")
            }
        }
    }

    /// A new member version, higher than every one handed out before, by any process on this
    /// machine: the version of the next profile sent to the group store.
    public func nextMemberVersion() throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(sql: "UPDATE profile SET member_version = member_version + 1 WHERE id = 1")
            return try Int64.fetchOne(db, sql: "SELECT member_version FROM profile WHERE id = 1") ?? 0
        }
    }

    /// Notes that the group store has the profile of `version` (and everything before it).
    public func recordProfileSynced(version: Int64, at instant: Date) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE profile SET profile_synced_version = max(profile_synced_version, ?), last_synced_at = ?
                    WHERE id = 1
                    """, arguments: [version, Self.milliseconds(instant)])
        }
    }

    public func syncState() throws(StoreError) -> SyncState {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT last_synced_at, member_version, profile_synced_version,
                        (SELECT count(*) FROM day_history WHERE synced = 0) AS unsynced
                    FROM profile WHERE id = 1
                    """)
            guard let row else {
                return SyncState(lastSyncedAt: nil, unsyncedDays: 0, memberVersion: 0, syncedVersion: 0)
            }
            let last: Int64? = try row.checkedIfPresent("last_synced_at", in: "profile")
            return SyncState(
                lastSyncedAt: last.map(Self.date(milliseconds:)),
                unsyncedDays: try row.checked("unsynced", in: "profile"),
                memberVersion: try row.checked("member_version", in: "profile"),
                syncedVersion: try row.checked("profile_synced_version", in: "profile"))
        }
    }

    /// Finished days not yet reported, oldest first.
    public func unsyncedDays() throws(StoreError) -> [DayRecord] {
        try history().filter { !$0.synced }
    }

    public func saveGroupCache(_ entry: GroupCacheEntry) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO group_cache (code, snapshot, fetched_at) VALUES (?, ?, ?)
                    ON CONFLICT(code) DO UPDATE SET snapshot = excluded.snapshot, fetched_at = excluded.fetched_at
                    """,
                arguments: [
                    entry.code.value, String(decoding: entry.snapshot, as: UTF8.self),
                    Self.milliseconds(entry.fetchedAt),
                ])
        }
    }

    public func groupCache(code: GroupCode) throws(StoreError) -> GroupCacheEntry? {
        try read { db in
            guard
                let row = try Row.fetchOne(db, sql: "SELECT * FROM group_cache WHERE code = ?", arguments: [code.value])
            else { return nil }
            let snapshot: String = try row.checked("snapshot", in: "group_cache")
            return GroupCacheEntry(
                code: code, snapshot: Data(snapshot.utf8),
                fetchedAt: Self.date(milliseconds: try row.checked("fetched_at", in: "group_cache")))
        }
    }
}
