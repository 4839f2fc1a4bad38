import Foundation
import ScreenMatesCore
import ScreenMatesUI

/// Gathers what the dashboard shows from the feed. Without a group the leaderboard lists the
/// user alone — built from a list of members, like a group's, so the group store can stand
/// behind it later without touching the view.
public enum DashboardDataBuilder {
    public static func make(feed: UsageFeed, now: Date, warning: String? = nil, source: String? = nil) -> DashboardData
    {
        let summary = feed.summary
        let name = feed.settings.displayName?.value ?? "you"
        var leaderboards: [LeaderboardPeriod: [LeaderboardEntry]] = [:]
        for period in LeaderboardPeriod.allCases {
            let me = LeaderboardMember(
                id: feed.settings.userID, name: name, blocks: feed.blocks(in: period), streak: summary.streak.current,
                lastActive: feed.lastActive, isMe: true)
            leaderboards[period] = Leaderboard.rank([me])
        }
        return DashboardData(
            userName: name, group: nil, calendar: feed.calendar, now: now, clockSpeed: feed.clock.speed,
            today: summary, leaderboards: leaderboards, warning: warning, source: source)
    }
}
