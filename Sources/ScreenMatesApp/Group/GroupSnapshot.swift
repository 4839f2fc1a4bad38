import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore

/// The group as last fetched: the group, its members and the per-day totals of the days the
/// weekly and monthly leaderboards need. Cached whole in the local store.
public struct GroupSnapshot: Hashable, Sendable, Codable {
    public var group: Group
    public var members: [MemberProfile]
    public var totals: [DayTotal]
    public var fetchedAt: Date

    public init(group: Group, members: [MemberProfile], totals: [DayTotal], fetchedAt: Date) {
        self.group = group
        self.members = members
        self.totals = totals
        self.fetchedAt = fetchedAt
    }

    /// The first day whose totals the leaderboards of `today` need: the earlier of the week's
    /// Monday and the month's first day.
    public static func firstTotalDay(today: LocalDate) -> LocalDate {
        min(LeaderboardPeriod.week.firstDay(containing: today), LeaderboardPeriod.month.firstDay(containing: today))
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

    public init(displayName: DisplayName, blocksToday: Int, day: LocalDate, streak: Int, lastActive: Date?) {
        self.displayName = displayName
        self.blocksToday = blocksToday
        self.day = day
        self.streak = streak
        self.lastActive = lastActive
    }

    public func profile(userID: String, version: Int64, now: Date) -> MemberProfile {
        MemberProfile(
            userID: userID, displayName: displayName, blocksToday: blocksToday, day: day, streak: streak,
            lastActive: lastActive, lastUpdated: now, version: version)
    }
}
