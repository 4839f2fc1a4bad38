import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesUI

/// The dashboard's numbers without a terminal: `screenmates status [--json]`. The JSON keys are
/// a contract that scripts and tests rely on; keys may be added, never renamed.
public struct StatusReport: Encodable, Sendable {
    public struct User: Encodable, Sendable {
        public var id: UserID
        @Nullable public var name: String?
    }

    /// A member of the group as `status` and `group show` list them, ranked for today.
    public struct Member: Encodable, Sendable {
        public var id: UserID
        public var name: String
        @Nullable public var rank: Int?
        @Nullable public var blocksUsed: Int?
        public var streak: Int
        @Nullable public var lastActive: String?
        public var isMe: Bool
    }

    public struct Group: Encodable, Sendable {
        @Nullable public var code: String?
        public var dailyGoalBlocks: Int
        public var members: [Member]
    }

    public struct Sync: Encodable, Sendable {
        @Nullable public var lastSyncedAt: String?
        public var unsyncedDays: Int
        public var offline: Bool
        /// Whether the group has today's numbers as they are here (false outside a group).
        public var todaySent: Bool
        /// How the group's changes reach a dashboard through this store: `live`, or `polling
        /// every 2 s` (a server whose notifications do not reach it, such as one behind a
        /// connection pooler); null outside a group or when the store is out of reach.
        @Nullable public var following: String?
    }

    /// A notice delivered, newest first.
    public struct Notice: Encodable, Sendable {
        public var kind: String
        public var day: String
        public var at: String
        public var title: String
        public var text: String
    }

    /// A time a challenge acted because its app came to the front while its rule forbade it.
    public struct ChallengeAct: Encodable, Sendable {
        public var challenge: String
        public var app: String
        /// `notice`, `minimize` or `close`.
        public var action: String
        public var at: String
    }

    public var date: String
    public var dayStartHour: Int
    /// The member's blocks today: this machine's and their other machines' (as last read).
    public var blocksUsed: Int
    /// Of `blocksUsed`, those used on the member's other machines.
    public var blocksOnOtherMachines: Int
    public var dailyGoalBlocks: Int
    public var progress: Double
    public var state: String
    public var todayStatus: String
    public var balanceSeconds: Int
    public var earnedSeconds: Int
    public var spentSeconds: Int
    public var overdraftSeconds: Int
    public var productiveBlocks: Int
    public var streak: Int
    public var bestStreak: Int
    public var eventsApplied: Int
    /// When the newest usage event happened.
    @Nullable public var lastActive: String?
    public var now: String
    public var nextResetAt: String
    public var timeZone: String
    public var clockSpeed: Double
    public var user: User
    public var group: Group
    public var sync: Sync
    public var notifications: [Notice]
    /// The times challenges acted on an app opened against their rule, newest first (of the
    /// notices listed).
    public var challengeActs: [ChallengeAct]
    /// The coin balance and how many entries its ledger holds (`include(games:…)` fills these in).
    public var coins = Coins(balance: 0, transactions: 0)
    /// The user's challenges and the group's open ones, newest first.
    public var challenges: [ChallengeSummary] = []
    /// The challenges open to everyone on the group store that the user joined, newest first,
    /// each with its board across groups (also among `challenges`, with `openToAll` true).
    public var openChallenges: [ChallengeSummary] = []
    /// The badges earned, oldest first.
    public var badges: [Badge] = []
    /// The group's weeks; null outside a group or before the group store was ever read.
    @Nullable public var week: WeekSummary?

    public init(feed: FiguresReader, data: DashboardContent, group status: GroupLink.Status? = nil) {
        let summary = feed.summary
        let ledger = summary.ledger
        date = summary.date.iso8601
        dayStartHour = feed.settings.dayStartHour
        blocksUsed = ledger.viceBlocks
        blocksOnOtherMachines = summary.otherMachinesBlocks
        dailyGoalBlocks = summary.progress.goal
        progress = (summary.progress.fraction * 1000).rounded() / 1000
        state = summary.state.rawValue
        todayStatus = summary.todayStatus.rawValue
        balanceSeconds = ledger.balanceSeconds
        earnedSeconds = ledger.earnedSeconds
        spentSeconds = ledger.spentSeconds
        overdraftSeconds = ledger.overdraftSeconds
        productiveBlocks = ledger.productiveBlocks
        streak = summary.streak.current
        bestStreak = summary.streak.best
        eventsApplied = feed.eventsApplied
        lastActive = feed.lastActive.map(TimeFormat.iso8601)
        now = TimeFormat.iso8601(data.now)
        nextResetAt = TimeFormat.iso8601(summary.nextReset)
        timeZone = feed.calendar.timeZone.identifier
        clockSpeed = feed.clock.speed
        user = User(id: feed.settings.userID, name: feed.settings.displayName?.value)
        group = Group(
            code: data.group?.code, dailyGoalBlocks: summary.progress.goal,
            members: data.leaderboard(.today).map { entry in
                Member(
                    id: entry.member.id, name: entry.member.name, rank: entry.rank, blocksUsed: entry.member.blocks,
                    streak: entry.member.streak, lastActive: entry.member.lastActive.map(TimeFormat.iso8601),
                    isMe: entry.member.isMe)
            })
        sync = Sync(
            lastSyncedAt: status?.lastSyncedAt.map(TimeFormat.iso8601),
            unsyncedDays: feed.settings.group == nil
                ? 0 : (status?.unsyncedDays ?? feed.history.filter { !$0.synced }.count),
            offline: status?.offline ?? false,
            todaySent: Self.groupHasToday(feed: feed, snapshot: status?.snapshot),
            following: status?.following?.description)
        let records = (try? feed.store.shownNotices(limit: 50)) ?? []
        notifications = records.map { record in
            Notice(
                kind: record.notice.kind.name, day: "\(record.notice.day)", at: TimeFormat.iso8601(record.at),
                title: record.notice.title, text: record.notice.body)
        }
        challengeActs = records.compactMap { record in
            guard case .challengeOpened(let id, let app, let action) = record.notice.kind else { return nil }
            return ChallengeAct(challenge: id, app: app, action: action, at: TimeFormat.iso8601(record.at))
        }
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The same numbers for a person reading a terminal.
    public func text(data: DashboardContent) -> String {
        let who = SafeText.displayable(user.name ?? "(no name yet)")
        let (hour, minute) = data.calendar.hourAndMinute(of: data.now)
        let countdown = TimeFormat.countdown(seconds: data.today.nextReset.timeIntervalSince(data.now))
        let groupText = group.code.map { "group \($0)" } ?? "no group"
        return """
            \(who) · \(groupText) · \(date) \(TimeFormat.clock(hour: hour, minute: minute)) (resets in \(countdown))
            Balance  \(TimeFormat.duration(seconds: balanceSeconds))  (earned \(TimeFormat.duration(seconds: earnedSeconds)), spent \(TimeFormat.duration(seconds: spentSeconds)), overdraft \(TimeFormat.duration(seconds: overdraftSeconds)))
            Streak   \(streak) day\(streak == 1 ? "" : "s")  (best \(bestStreak); today \(todayStatus))
            Today    \(blocksUsed) / \(dailyGoalBlocks) blocks · \(Int(progress * 100))% · \(state)\(otherMachinesText)
            """ + syncText(now: data.now)
    }

    /// " (4 on your other machines)", when they used any today.
    private var otherMachinesText: String {
        blocksOnOtherMachines > 0 ? " (\(blocksOnOtherMachines) on your other machines)" : ""
    }
}

extension StatusReport {
    /// Whether the group's copy of the user (in the snapshot last read from it) shows today's
    /// numbers as the local store has them: the day, the member's blocks, the streak, and this
    /// machine's newest usage (unless the member's other machines count today: the group keeps the
    /// last active time of whichever wrote last).
    static func groupHasToday(feed: FiguresReader, snapshot: GroupSnapshot?) -> Bool {
        guard feed.settings.group != nil,
            let mine = snapshot?.members.first(where: { $0.userID == feed.settings.userID })
        else { return false }
        let sameActive =
            switch (mine.lastActive, feed.lastActive) {
            case (nil, nil): true
            case (let sent?, let here?): abs(sent.timeIntervalSince(here)) < 0.001
            default: false
            }
        return mine.day == feed.today
            && mine.blocksToday == min(feed.summary.ledger.viceBlocks, GroupStoreRules.maximumBlocksPerDay)
            && mine.streak == feed.summary.streak.current && (sameActive || feed.otherMachines[feed.today] != nil)
    }

    /// In a group: what the group has not seen yet, and how to send it.
    func syncText(now: Date) -> String {
        guard group.code != nil else { return "" }
        let lastSent = sync.lastSyncedAt.flatMap { TimeFormat.parseInstant($0, timeZone: .gmt) }
        let last = lastSent.map { "last sent \(TimeFormat.relative($0, now: now))" } ?? "never sent"
        var waiting: [String] = []
        if !sync.todaySent { waiting.append("today's latest numbers") }
        if sync.unsyncedDays > 0 {
            waiting.append("\(sync.unsyncedDays) finished day\(sync.unsyncedDays == 1 ? "" : "s")")
        }
        let offline = sync.offline ? " · group store out of reach" : ""
        guard !waiting.isEmpty else { return "\nGroup    \(last)\(offline) · up to date" }
        return "\nGroup    \(last)\(offline) · not sent yet: \(waiting.joined(separator: " and ")); "
            + "`screenmates sync` sends them, `screenmates sync --watch` keeps sending"
    }
}
