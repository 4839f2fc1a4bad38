import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// The rows of the group file as GRDB records: each table's columns named once, here; written
// through `PersistableRecord` (Encodable) and read through `Row.checked`, because rows here may
// come from a damaged file or another program: GRDB's own decoding turns the text 'lots' in an
// INTEGER column into 0 where this must say the file is damaged. Values the engine keeps but
// the domain would refuse (a name that is not a display name, a day beyond any engine's years)
// are damage too. Both throw `UnreadableValue`, which the store reports as `.unusable`.

/// Reads a record's column by its coding key, checked.
extension Row {
    fileprivate func checked<Value: DatabaseValueConvertible>(_ key: some CodingKey, of table: String) throws -> Value {
        try checked(key.stringValue, in: table)
    }

    fileprivate func checkedIfPresent<Value: DatabaseValueConvertible>(_ key: some CodingKey, of table: String) throws
        -> Value?
    {
        try checkedIfPresent(key.stringValue, in: table)
    }
}

/// A row of `group_info`: one group.
struct GroupInfoRecord: Codable, FetchableRecord, PersistableRecord {
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

    init(code: String, dailyGoalBlocks: Int, createdAt: Int64, changeSeq: Int64) {
        self.code = code
        self.dailyGoalBlocks = dailyGoalBlocks
        self.createdAt = createdAt
        self.changeSeq = changeSeq
    }

    init(row: Row) throws {
        let table = Self.databaseTableName
        code = try row.checked(CodingKeys.code, of: table)
        dailyGoalBlocks = try row.checked(CodingKeys.dailyGoalBlocks, of: table)
        createdAt = try row.checked(CodingKeys.createdAt, of: table)
        changeSeq = try row.checked(CodingKeys.changeSeq, of: table)
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
}

/// A row of `member`: one member's profile in one group.
struct MemberRecord: Codable, FetchableRecord, PersistableRecord {
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

    init(row: Row) throws {
        let table = Self.databaseTableName
        code = try row.checked(CodingKeys.code, of: table)
        userID = try row.checked(CodingKeys.userID, of: table)
        displayName = try row.checked(CodingKeys.displayName, of: table)
        nameKey = try row.checked(CodingKeys.nameKey, of: table)
        blocksToday = try row.checked(CodingKeys.blocksToday, of: table)
        day = try row.checked(CodingKeys.day, of: table)
        streak = try row.checked(CodingKeys.streak, of: table)
        lastActive = try row.checkedIfPresent(CodingKeys.lastActive, of: table)
        lastUpdated = try row.checked(CodingKeys.lastUpdated, of: table)
        version = try row.checked(CodingKeys.version, of: table)
        joinedAt = try row.checked(CodingKeys.joinedAt, of: table)
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
        lastActive = try profile.lastActive.map(SQLiteInstant.milliseconds)
        lastUpdated = try SQLiteInstant.milliseconds(profile.lastUpdated)
        version = profile.version
        self.joinedAt = joinedAt
    }

    /// Takes `profile`'s values, keeping the group and the time of joining.
    mutating func take(_ profile: MemberProfile) throws(GroupStoreError) {
        displayName = profile.displayName.value
        nameKey = profile.displayName.uniquenessKey
        blocksToday = profile.blocksToday
        day = profile.day.dayNumber
        streak = profile.streak
        lastActive = try profile.lastActive.map(SQLiteInstant.milliseconds)
        lastUpdated = try SQLiteInstant.milliseconds(profile.lastUpdated)
        version = profile.version
    }

    static func inGroup(_ code: GroupCode) -> QueryInterfaceRequest<MemberRecord> {
        filter(Columns.code == code.value)
    }

    static func find(_ db: Database, code: GroupCode, userID: UserID) throws -> MemberRecord? {
        try inGroup(code).filter(Columns.userID == userID).fetchOne(db)
    }

    var profile: MemberProfile {
        get throws {
            guard let name = try? DisplayName(validating: displayName) else {
                throw UnreadableValue(table: Self.databaseTableName, column: CodingKeys.displayName.rawValue)
            }
            return MemberProfile(
                userID: userID, displayName: name, blocksToday: blocksToday,
                day: try SQLiteInstant.localDate(day, table: Self.databaseTableName, column: CodingKeys.day.rawValue),
                streak: streak, lastActive: lastActive.map(SQLiteInstant.date(milliseconds:)),
                lastUpdated: SQLiteInstant.date(milliseconds: lastUpdated), version: version)
        }
    }

    /// The group code, checked: a malformed one is damage.
    var groupCode: GroupCode {
        get throws {
            guard let code = try? GroupCode(validating: code) else {
                throw UnreadableValue(table: Self.databaseTableName, column: CodingKeys.code.rawValue)
            }
            return code
        }
    }
}

/// A row of `day_total`: one member's vice blocks on one day in one group.
struct DayTotalRecord: Codable, FetchableRecord, PersistableRecord {
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

    init(row: Row) throws {
        let table = Self.databaseTableName
        code = try row.checked(CodingKeys.code, of: table)
        userID = try row.checked(CodingKeys.userID, of: table)
        date = try row.checked(CodingKeys.date, of: table)
        viceBlocks = try row.checked(CodingKeys.viceBlocks, of: table)
        goalBlocks = try row.checked(CodingKeys.goalBlocks, of: table)
        version = try row.checked(CodingKeys.version, of: table)
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

    static func inGroup(_ code: GroupCode, days: ClosedRange<Int>) -> QueryInterfaceRequest<DayTotalRecord> {
        filter(Columns.code == code.value && days.contains(Columns.date))
    }

    var dayTotal: DayTotal {
        get throws {
            DayTotal(
                userID: userID,
                date: try SQLiteInstant.localDate(
                    date, table: Self.databaseTableName, column: CodingKeys.date.rawValue),
                viceBlocks: viceBlocks, goalBlocks: goalBlocks, version: version)
        }
    }
}

/// A row of `failed_attempt`: a code that named no group, tried by a user.
struct FailedAttemptRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "failed_attempt"

    var userID: UserID
    var at: Int64

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case at
    }

    init(userID: UserID, at: Int64) {
        self.userID = userID
        self.at = at
    }

    init(row: Row) throws {
        userID = try row.checked(CodingKeys.userID, of: Self.databaseTableName)
        at = try row.checked(CodingKeys.at, of: Self.databaseTableName)
    }

    enum Columns {
        static let userID = Column(CodingKeys.userID)
        static let at = Column(CodingKeys.at)
    }
}

/// A row of `last_group`: the group a user joined last.
struct LastGroupRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "last_group"

    var userID: UserID
    var code: String

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case code
    }

    init(userID: UserID, code: String) {
        self.userID = userID
        self.code = code
    }

    init(row: Row) throws {
        userID = try row.checked(CodingKeys.userID, of: Self.databaseTableName)
        code = try row.checked(CodingKeys.code, of: Self.databaseTableName)
    }
}

/// Instants and days as the file keeps them: milliseconds since 1970, day numbers.
enum SQLiteInstant {
    static func milliseconds(_ instant: Date) throws(GroupStoreError) -> Int64 {
        guard GroupStoreRules.isStorable(instant) else {
            throw .invalidValue("\(instant) is not an instant the group store can keep.")
        }
        return Int64((instant.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// A day number read back as a date; one outside the years any engine keeps is damage.
    static func localDate(_ number: Int, table: String, column: String) throws -> LocalDate {
        let range = GroupStoreRules.storableDates
        guard (range.lowerBound.dayNumber...range.upperBound.dayNumber).contains(number) else {
            throw UnreadableValue(table: table, column: column)
        }
        return LocalDate(dayNumber: number)
    }
}

extension SQLiteInstant {
    /// The day (number) an instant in milliseconds falls on, in UTC.
    static func dayNumber(ofMilliseconds milliseconds: Int64) -> Int {
        Int((Double(milliseconds) / 86_400_000).rounded(.down))
    }
}
