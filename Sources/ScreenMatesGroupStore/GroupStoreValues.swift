import Foundation
import ScreenMatesCore

/// A group: its invite code, the daily goal its members share, and how many they are.
public struct Group: Hashable, Sendable, Codable {
    public var code: GroupCode
    public var dailyGoalBlocks: Int
    public var memberCount: Int
    public var createdAt: Date

    public init(code: GroupCode, dailyGoalBlocks: Int, memberCount: Int, createdAt: Date) {
        self.code = code
        self.dailyGoalBlocks = dailyGoalBlocks
        self.memberCount = memberCount
        self.createdAt = createdAt
    }
}

/// What a member shares with their group. `day` is the member's own date for `blocksToday`, so
/// a reader whose today is another date shows the member as idle rather than as zero.
public struct MemberProfile: Hashable, Sendable, Codable {
    /// The member's user id.
    public var userID: UserID
    public var displayName: DisplayName
    public var blocksToday: Int
    public var day: LocalDate
    public var streak: Int
    public var lastActive: Date?
    public var lastUpdated: Date
    /// Increases with every update the member makes; a write with a version that is not newer
    /// than the stored one is ignored.
    public var version: Int64
    /// The writing machine's productive blocks on `day`, when it says them: kept with the machine
    /// for the member alone (`MemberMachine.productiveToday`); a group's readers never get it (nil).
    public var productiveToday: Int?

    public init(
        userID: UserID, displayName: DisplayName, blocksToday: Int, day: LocalDate, streak: Int, lastActive: Date?,
        lastUpdated: Date, version: Int64, productiveToday: Int? = nil
    ) {
        self.productiveToday = productiveToday
        self.userID = userID
        self.displayName = displayName
        self.blocksToday = blocksToday
        self.day = day
        self.streak = streak
        self.lastActive = lastActive
        self.lastUpdated = lastUpdated
        self.version = version
    }
}

/// One member's total for one finished day: what weekly and monthly leaderboards add up.
public struct DayTotal: Hashable, Sendable, Codable {
    public var userID: UserID
    public var date: LocalDate
    public var viceBlocks: Int
    public var goalBlocks: Int
    public var version: Int64
    /// The writing machine's productive blocks that day, when it says them: kept with the machine's
    /// day for the member alone (`MachineDayTotal.productiveBlocks`); a group's readers never get it.
    public var productiveBlocks: Int?

    public init(
        userID: UserID, date: LocalDate, viceBlocks: Int, goalBlocks: Int, version: Int64, productiveBlocks: Int? = nil
    ) {
        self.productiveBlocks = productiveBlocks
        self.userID = userID
        self.date = date
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
        self.version = version
    }
}
