import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesUI

/// Gathers what the dashboard shows from the usage figures and the group link's status.
/// Without a group the leaderboard lists the user alone, built from a list of members like a
/// group's.
public enum DashboardContentBuilder {
    public static func make(
        figures: UsageFigures, clockSpeed: Double, now: Date, group: GroupLink.Status? = nil,
        leaderboards: [LeaderboardPeriod: [LeaderboardEntry]]? = nil, warning: String? = nil, source: String? = nil
    ) -> DashboardContent {
        var name = figures.settings.displayName?.value ?? "you"
        // On one of several machines, the header says so: the group counts them as one person.
        if let machines = group?.snapshot?.machinesInUse, machines > 1 { name += " · \(machines) machines" }
        let groupLine = figures.settings.group.map { membership in
            DashboardContent.GroupSummary(
                code: membership.code.value, memberCount: max(group?.snapshot?.members.count ?? 1, 1))
        }
        let notes = [source, group.flatMap { syncNote($0, now: now, clockSpeed: clockSpeed) }].compactMap { $0 }
        var data = DashboardContent(
            userName: name, group: groupLine,
            calendar: figures.calendar, now: now, clockSpeed: clockSpeed, today: figures.summary,
            leaderboards: leaderboards ?? Self.leaderboards(figures: figures, group: group),
            warning: warning ?? group?.problem, source: notes.isEmpty ? nil : notes.joined(separator: " · "))
        data.history = HistoryOverview(
            history: figures.history, today: figures.summary, trackingStart: figures.dayState.trackingStart)
        data.settings = figures.settings
        return data
    }

    /// The same, from a feed's figures on its clock.
    public static func make(
        feed: FiguresReader, now: Date, group: GroupLink.Status? = nil,
        leaderboards: [LeaderboardPeriod: [LeaderboardEntry]]? = nil, warning: String? = nil, source: String? = nil
    ) -> DashboardContent {
        make(
            figures: feed.figures, clockSpeed: feed.clock.speed, now: now, group: group, leaderboards: leaderboards,
            warning: warning, source: source)
    }

    /// The ranked leaderboards: the group's when there is a snapshot, the user alone otherwise.
    public static func leaderboards(figures: UsageFigures, group: GroupLink.Status?) -> [LeaderboardPeriod:
        [LeaderboardEntry]]
    {
        let me = LeaderboardMember(
            id: figures.settings.userID, name: figures.settings.displayName?.value ?? "you",
            blocks: figures.summary.ledger.viceBlocks, streak: figures.summary.streak.current,
            lastActive: figures.lastActive,
            isMe: true)
        if let snapshot = group?.snapshot {
            return GroupLeaderboards.make(snapshot: snapshot, today: figures.today, me: me, myHistory: figures.history)
        }
        var result: [LeaderboardPeriod: [LeaderboardEntry]] = [:]
        for period in LeaderboardPeriod.allCases {
            var mine = me
            mine.blocks = figures.blocks(in: period)
            result[period] = Leaderboard.rank([mine])
        }
        return result
    }

    /// "synced just now", "2 days not synced", "offline · cached 5m ago", "store busy · not sent".
    ///
    /// Ages are said in real time: a sync is the link talking to the store, which happens on the
    /// real clock, so a demo at `--speed 120` that synced 15 s ago says "just now", not "30m ago"
    /// (`now` and the instants are on the app clock, which runs `clockSpeed` times faster).
    public static func syncNote(_ status: GroupLink.Status, now: Date, clockSpeed: Double = 1) -> String? {
        func age(_ instant: Date) -> String {
            let realAge = now.timeIntervalSince(instant) / max(clockSpeed, .leastNonzeroMagnitude)
            return TimeFormat.relative(now.addingTimeInterval(-realAge), now: now)
        }
        if status.offline {
            guard let fetched = status.snapshot?.fetchedAt else { return "offline" }
            return "offline · cached " + age(fetched)
        }
        if status.busy { return "store busy · not sent" }
        if status.unsyncedDays > 0 {
            return "\(status.unsyncedDays) day\(status.unsyncedDays == 1 ? "" : "s") not synced"
        }
        guard let synced = status.lastSyncedAt else { return "not synced yet" }
        return "synced " + age(synced)
    }
}
