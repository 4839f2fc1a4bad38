import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore

/// Turns a group snapshot and the user's own live figures into ranked leaderboards for today,
/// this week and this month.
///
/// A member whose profile is for another day than the reader's today is idle today (not zero);
/// week and month add the member's synced per-day totals to today's blocks. The user's own row
/// always uses the live figures, which are fresher than anything in the store.
public enum GroupLeaderboards {
    public static func make(
        snapshot: GroupSnapshot, today: LocalDate, me: LeaderboardMember, myHistory: [DayRecord]
    ) -> [LeaderboardPeriod: [LeaderboardEntry]] {
        var totalsByMember: [String: [DayTotal]] = [:]
        for total in snapshot.totals where total.date < today {
            totalsByMember[total.userID, default: []].append(total)
        }
        var result: [LeaderboardPeriod: [LeaderboardEntry]] = [:]
        for period in LeaderboardPeriod.allCases {
            let first = period.firstDay(containing: today)
            var members: [LeaderboardMember] = snapshot.members.filter { $0.userID != me.id }.map { profile in
                let todayBlocks = profile.day == today ? profile.blocksToday : nil
                var blocks = todayBlocks
                if period != .today {
                    let earlier = (totalsByMember[profile.userID] ?? []).filter { $0.date >= first }
                    if !earlier.isEmpty || todayBlocks != nil {
                        blocks = earlier.reduce(todayBlocks ?? 0) { $0 + $1.viceBlocks }
                    }
                }
                return LeaderboardMember(
                    id: profile.userID, name: profile.displayName.value, blocks: blocks, streak: profile.streak,
                    lastActive: profile.lastActive)
            }
            var mine = me
            if period != .today {
                mine.blocks = myHistory.filter { $0.date >= first && $0.date < today }.reduce(me.blocks ?? 0) {
                    $0 + $1.viceBlocks
                }
            }
            members.append(mine)
            result[period] = Leaderboard.rank(members)
        }
        return result
    }
}
