import Foundation
import ScreenMatesCore
import ScreenMatesUI

/// Gathers what the dashboard shows from the feed and the group link. Without a group the
/// leaderboard lists the user alone, built from a list of members like a group's.
public enum DashboardDataBuilder {
    public static func make(
        feed: UsageFeed, now: Date, group: GroupLink.Status? = nil,
        leaderboards: [LeaderboardPeriod: [LeaderboardEntry]]? = nil, warning: String? = nil, source: String? = nil
    ) -> DashboardData {
        let name = feed.settings.displayName?.value ?? "you"
        let groupLine = feed.settings.group.map { membership in
            DashboardData.GroupSummary(
                code: membership.code.value, memberCount: max(group?.snapshot?.members.count ?? 1, 1))
        }
        let notes = [source, group.flatMap { syncNote($0, now: now) }].compactMap { $0 }
        var data = DashboardData(
            userName: name, group: groupLine,
            calendar: feed.calendar, now: now, clockSpeed: feed.clock.speed, today: feed.summary,
            leaderboards: leaderboards ?? Self.leaderboards(feed: feed, group: group),
            warning: warning ?? group?.problem, source: notes.isEmpty ? nil : notes.joined(separator: " · "))
        data.history = HistoryOverview(
            history: feed.history, today: feed.summary, trackingStart: feed.dayState.trackingStart)
        data.settings = feed.settings
        return data
    }

    /// The ranked leaderboards: the group's when there is a snapshot, the user alone otherwise.
    public static func leaderboards(feed: UsageFeed, group: GroupLink.Status?) -> [LeaderboardPeriod:
        [LeaderboardEntry]]
    {
        let me = LeaderboardMember(
            id: feed.settings.userID, name: feed.settings.displayName?.value ?? "you", blocks: feed.ledger.viceBlocks,
            streak: feed.summary.streak.current, lastActive: feed.lastActive, isMe: true)
        if let snapshot = group?.snapshot {
            return GroupLeaderboards.make(snapshot: snapshot, today: feed.today, me: me, myHistory: feed.history)
        }
        var result: [LeaderboardPeriod: [LeaderboardEntry]] = [:]
        for period in LeaderboardPeriod.allCases {
            var mine = me
            mine.blocks = feed.blocks(in: period)
            result[period] = Leaderboard.rank([mine])
        }
        return result
    }

    /// "synced just now", "2 days not synced", "offline · cached 5m ago".
    public static func syncNote(_ status: GroupLink.Status, now: Date) -> String? {
        if status.offline {
            guard let fetched = status.snapshot?.fetchedAt else { return "offline" }
            return "offline · cached " + TimeFormat.relative(fetched, now: now)
        }
        if status.unsyncedDays > 0 {
            return "\(status.unsyncedDays) day\(status.unsyncedDays == 1 ? "" : "s") not synced"
        }
        guard let synced = status.lastSyncedAt else { return "not synced yet" }
        return "synced " + TimeFormat.relative(synced, now: now)
    }
}
