import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// The rows of the group file as GRDB records: each table's columns named once, here, for
// writing (`PersistableRecord`) and for requests. They are never read back as records: rows here
// may come from a damaged file or another member's hand, so they are read as `StoredGroupRow`s
// and checked (`SQLiteStoredRows`), or, where only a value or two matters, with `Row.readable`.

/// A row of `group_info`: one group.
struct GroupInfoRecord: Encodable, PersistableRecord {
    static let databaseTableName = "group_info"

    var code: String
    var dailyGoalBlocks: Int
    var createdAt: Int64
    var changeSeq: Int64

    enum CodingKeys: String, CodingKey {
        case code
        case dailyGoalBlocks = "daily_goal_blocks"
        case createdAt = "created_at"
        case changeSeq = "change_seq"
    }

    enum Columns {
        static let code = Column(CodingKeys.code)
        static let changeSeq = Column(CodingKeys.changeSeq)
    }

    /// Whether a group has this code (its row is not read: a damaged one still exists).
    static func exists(_ db: Database, code: GroupCode) throws -> Bool {
        try filter(Columns.code == code.value).fetchCount(db) > 0
    }

    /// The group, with its member count, checked (`StoredGroup`): a group row that cannot be
    /// right throws the `LeftOutRow` saying why, which the store reports as unusable.
    static func group(_ db: Database, code: GroupCode) throws -> Group? {
        let table = databaseTableName
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT daily_goal_blocks, created_at FROM group_info WHERE code = ?", arguments: [code.value])
        else { return nil }
        let count = try MemberRecord.filter(MemberRecord.Columns.code == code.value).fetchCount(db)
        let stored: StoredGroup
        do {
            stored = StoredGroup(
                code: code.value, dailyGoalBlocks: try row.checked("daily_goal_blocks", in: table),
                memberCount: Int64(count), createdAt: try row.checked("created_at", in: table))
        } catch let error as UnreadableValue {
            throw LeftOutRow(.group, key: code.value, reason: "\(error.column) holds a value of the wrong kind")
        }
        return try stored.checked()
    }

    /// The group's change mark, or nil when no group has this code.
    static func changeMark(_ db: Database, code: GroupCode) throws -> Int64? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT change_seq FROM group_info WHERE code = ?", arguments: [code.value])
        else { return nil }
        return try row.checked("change_seq", in: databaseTableName)
    }

    /// The group's change mark and last removal, or nil when no group has this code.
    static func changeMarks(_ db: Database, code: GroupCode) throws -> GroupChangeMarks? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT change_seq, removed_seq FROM group_info WHERE code = ?", arguments: [code.value])
        else { return nil }
        return GroupChangeMarks(
            mark: try row.checked("change_seq", in: databaseTableName),
            lastRemoval: try row.checked("removed_seq", in: databaseTableName))
    }
}

/// A row of `member`: one member's profile in one group.
struct MemberRecord: Encodable, PersistableRecord {
    static let databaseTableName = "member"

    var code: String
    var userID: UserID
    var displayName: String
    var nameKey: String
    var blocksToday: Int
    var day: Int
    var streak: Int
    var lastActive: Int64?
    var lastUpdated: Int64
    var version: Int64
    var joinedAt: Int64

    enum CodingKeys: String, CodingKey {
        case code
        case userID = "user_id"
        case displayName = "display_name"
        case nameKey = "name_key"
        case blocksToday = "blocks_today"
        case day, streak
        case lastActive = "last_active"
        case lastUpdated = "last_updated"
        case version
        case joinedAt = "joined_at"
    }

    enum Columns {
        static let code = Column(CodingKeys.code)
        static let userID = Column(CodingKeys.userID)
        static let nameKey = Column(CodingKeys.nameKey)
        static let version = Column(CodingKeys.version)
        static let joinedAt = Column(CodingKeys.joinedAt)
    }

    init(_ profile: MemberProfile, code: GroupCode, joinedAt: Int64) throws(GroupStoreError) {
        self.code = code.value
        userID = profile.userID
        displayName = profile.displayName.value
        nameKey = profile.displayName.uniquenessKey
        blocksToday = profile.blocksToday
        day = profile.day.dayNumber
        streak = profile.streak
        lastActive = try StoredInstant.milliseconds(ifAny: profile.lastActive)
        lastUpdated = try StoredInstant.milliseconds(profile.lastUpdated)
        version = profile.version
        self.joinedAt = joinedAt
    }

    static func inGroup(_ code: GroupCode) -> QueryInterfaceRequest<MemberRecord> {
        filter(Columns.code == code.value)
    }
}

/// A row of `day_total`: one member's vice blocks on one day in one group.
struct DayTotalRecord: Encodable, PersistableRecord {
    static let databaseTableName = "day_total"

    var code: String
    var userID: UserID
    var date: Int
    var viceBlocks: Int
    var goalBlocks: Int
    var version: Int64

    enum CodingKeys: String, CodingKey {
        case code
        case userID = "user_id"
        case date
        case viceBlocks = "vice_blocks"
        case goalBlocks = "goal_blocks"
        case version
    }

    enum Columns {
        static let code = Column(CodingKeys.code)
        static let userID = Column(CodingKeys.userID)
        static let date = Column(CodingKeys.date)
        static let viceBlocks = Column(CodingKeys.viceBlocks)
    }

    init(_ total: DayTotal, code: GroupCode) {
        self.code = code.value
        userID = total.userID
        date = total.date.dayNumber
        viceBlocks = total.viceBlocks
        goalBlocks = total.goalBlocks
        version = total.version
    }
}

/// A row of `failed_attempt`: a code that named no group, tried by a user.
struct FailedAttemptRecord: Encodable, PersistableRecord {
    static let databaseTableName = "failed_attempt"

    var userID: UserID
    var at: Int64

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case at
    }

    enum Columns {
        static let userID = Column(CodingKeys.userID)
        static let at = Column(CodingKeys.at)
    }
}

/// A row of `last_group`: the group a user joined last.
struct LastGroupRecord: Encodable, PersistableRecord {
    static let databaseTableName = "last_group"

    var userID: UserID
    var code: String

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case code
    }

}
