import Foundation
import ScreenMatesCore

/// Turns a group snapshot and the user's own live figures into ranked leaderboards for today,
/// this week and this month.
///
/// A member whose profile is for another day than the reader's today is idle today (not zero);
/// week and month add the member's synced totals of the period's finished days to today's
/// blocks (a member with neither is idle there too). A snapshot fetched on another day has no
/// sums that fit today, so until the next fetch week and month show today's blocks only. The
/// user's own row always uses the live figures, which are fresher than anything in the store.
/// Sums saturate: whatever a snapshot holds, no addition here can trap.
public enum GroupLeaderboards {
    public static func make(
        snapshot: GroupSnapshot, today: LocalDate, me: LeaderboardMember, myHistory: [DayRecord]
    ) -> [LeaderboardPeriod: [LeaderboardEntry]] {
        var result: [LeaderboardPeriod: [LeaderboardEntry]] = [:]
        for period in LeaderboardPeriod.allCases {
            let first = period.firstDay(containing: today)
            let finished = snapshot.day == today ? snapshot.finishedBlocks(period) : [:]
            var members: [LeaderboardMember] = snapshot.members.filter { $0.userID != me.id }.map { profile in
                let todayBlocks = profile.day == today ? profile.blocksToday : nil
                var blocks = todayBlocks
                if let earlier = finished[profile.userID] { blocks = earlier.saturatingAdding(todayBlocks ?? 0) }
                return LeaderboardMember(
                    id: profile.userID, name: profile.displayName.value, blocks: blocks, streak: profile.streak,
                    lastActive: profile.lastActive)
            }
            var mine = me
            if period != .today {
                mine.blocks = myHistory.filter { $0.date >= first && $0.date < today }.reduce(me.blocks ?? 0) {
                    $0.saturatingAdding($1.viceBlocks)
                }
            }
            members.append(mine)
            result[period] = Leaderboard.rank(members)
        }
        return result
    }
}
