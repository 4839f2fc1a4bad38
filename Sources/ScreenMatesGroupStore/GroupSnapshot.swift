import Foundation
import ScreenMatesCore

/// The group as last fetched: the group, its members, and each member's vice blocks over the
/// finished days of the week and of the month that `day` is in — what the weekly and monthly
/// leaderboards add today's blocks to — and the rows the store held that could not be right,
/// left out of all that and named. Cached whole in the local store.
public struct GroupSnapshot: Hashable, Sendable, Codable {
    public var group: Group
    public var members: [MemberProfile]
    /// The reader's day when this was fetched; the sums cover the days before it.
    public var day: LocalDate
    /// Vice blocks by user id over the week's finished days (Monday up to `day`, excluded).
    public var weekBlocks: [UserID: Int]
    /// Vice blocks by user id over the month's finished days.
    public var monthBlocks: [UserID: Int]
    public var fetchedAt: Date
    /// The rows the reads behind this snapshot left out.
    public var leftOut: [LeftOutRow]
    /// The group's change mark this snapshot is complete up to (read before its rows), when known:
    /// a later look reads only what changed after it (`GroupLook`).
    public var mark: Int64?
    /// How many machines the reader uses, when there is more than one and it was read (the reader
    /// reads their machines when their own row changed): what the header says.
    public var machinesInUse: Int?

    public init(
        group: Group, members: [MemberProfile], day: LocalDate, weekBlocks: [UserID: Int] = [:],
        monthBlocks: [UserID: Int] = [:], fetchedAt: Date, leftOut: [LeftOutRow] = [], mark: Int64? = nil
    ) {
        self.group = group
        self.members = members
        self.day = day
        self.weekBlocks = weekBlocks
        self.monthBlocks = monthBlocks
        self.fetchedAt = fetchedAt
        self.leftOut = leftOut
        self.mark = mark
    }

    private enum CodingKeys: String, CodingKey {
        case group, members, day, weekBlocks, monthBlocks, fetchedAt, leftOut, mark, machinesInUse
    }

    /// A snapshot cached before rows were left out has none, and one cached before marks none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        group = try container.decode(Group.self, forKey: .group)
        members = try container.decode([MemberProfile].self, forKey: .members)
        day = try container.decode(LocalDate.self, forKey: .day)
        weekBlocks = try container.decode([UserID: Int].self, forKey: .weekBlocks)
        monthBlocks = try container.decode([UserID: Int].self, forKey: .monthBlocks)
        fetchedAt = try container.decode(Date.self, forKey: .fetchedAt)
        leftOut = try container.decodeIfPresent([LeftOutRow].self, forKey: .leftOut) ?? []
        mark = try container.decodeIfPresent(Int64.self, forKey: .mark)
        machinesInUse = try container.decodeIfPresent(Int.self, forKey: .machinesInUse)
    }

    /// The finished days of `period` before `today`, or nil on its first day.
    public static func finishedDays(of period: LeaderboardPeriod, today: LocalDate) -> ClosedRange<LocalDate>? {
        let first = period.firstDay(containing: today)
        return first < today ? first...today.adding(days: -1) : nil
    }

    /// The sums of finished days for `period` (none for today).
    public func finishedBlocks(_ period: LeaderboardPeriod) -> [UserID: Int] {
        switch period {
        case .today: [:]
        case .week: weekBlocks
        case .month: monthBlocks
        }
    }

    public func encoded() -> Data {
        (try? JSONEncoder().encode(self)) ?? Data()
    }

    public static func decoded(_ data: Data) -> GroupSnapshot? {
        try? JSONDecoder().decode(GroupSnapshot.self, from: data)
    }
}

/// What the user's own profile says now, before it gets a version: the figures the feed knows.
public struct ProfileDraft: Hashable, Sendable {
    public var displayName: DisplayName
    public var blocksToday: Int
    public var day: LocalDate
    public var streak: Int
    public var lastActive: Date?
    /// This machine's productive blocks today: for the member's other machines only.
    public var productiveToday: Int?

    public init(
        displayName: DisplayName, blocksToday: Int, day: LocalDate, streak: Int, lastActive: Date?,
        productiveToday: Int? = nil
    ) {
        self.productiveToday = productiveToday
        self.displayName = displayName
        self.blocksToday = blocksToday
        self.day = day
        self.streak = streak
        self.lastActive = lastActive
    }

    public func profile(userID: UserID, version: Int64, now: Date) -> MemberProfile {
        MemberProfile(
            userID: userID, displayName: displayName, blocksToday: blocksToday, day: day, streak: streak,
            lastActive: lastActive, lastUpdated: now, version: version,
            // Only the member's own machines read it: held in bounds rather than refusing the profile.
            productiveToday: productiveToday.map { min(max($0, 0), GroupStoreRules.maximumBlocksPerDay) })
    }
}
