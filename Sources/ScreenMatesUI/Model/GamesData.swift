import Foundation
import ScreenMatesCore

/// What the challenges, profile and week screens and the header's coin balance show, gathered
/// by the application (the user's own challenges, coins and badges from the home's store, the
/// group's part from the group store or its cache). The views draw only from this.
public struct GamesData: Hashable, Sendable {
    public var coins: Int
    /// The coin ledger's entries, newest first (the profile shows the latest).
    public var ledger: [CoinLine]
    /// The user's challenges and the group's open ones, newest first.
    public var challenges: [ChallengeRow]
    /// The badges earned, with the day each was earned.
    public var badges: [BadgeKind: LocalDate]
    /// The group's weeks; nil outside a group.
    public var week: WeekData?
    /// The user is in a group (so a challenge may be shared and joined).
    public var inGroup: Bool
    /// The group store is out of reach: the group's part is as last seen.
    public var offline: Bool
    /// The apps a challenge may name (hidden ones cannot be shared with the group).
    public var apps: [TrackedApp]

    public init(
        coins: Int, ledger: [CoinLine] = [], challenges: [ChallengeRow] = [], badges: [BadgeKind: LocalDate] = [:],
        week: WeekData? = nil, inGroup: Bool = false, offline: Bool = false, apps: [TrackedApp] = []
    ) {
        self.coins = coins
        self.ledger = ledger
        self.challenges = challenges
        self.badges = badges
        self.week = week
        self.inGroup = inGroup
        self.offline = offline
        self.apps = apps
    }

    public struct CoinLine: Hashable, Sendable {
        public var at: Date
        public var amount: Int
        public var reason: String

        public init(at: Date, amount: Int, reason: String) {
            self.at = at
            self.amount = amount
            self.reason = reason
        }
    }

    /// One challenge as the challenges screen lists it.
    public struct ChallengeRow: Hashable, Sendable {
        public var id: String
        /// "at most 2 blocks of vice apps a day".
        public var summary: String
        public var firstDay: LocalDate
        public var lastDay: LocalDate
        public var reward: Int
        public var penalty: Int
        /// "running until the end of 2026-03-22", "broken at …", "open to join"…
        public var state: String
        public var isGroup: Bool
        public var joined: Bool
        /// A group challenge the user may still join.
        public var canJoin: Bool
        /// One of the user's that is still undecided (so it can be given up).
        public var canForfeit: Bool
        /// A group challenge's leaderboard, best first (an open one's: across groups).
        public var participants: [Participant]
        /// One open to everyone on the group store (`isGroup` too: it has a board).
        public var isOpenToAll = false

        public init(
            id: String, summary: String, firstDay: LocalDate, lastDay: LocalDate, reward: Int, penalty: Int,
            state: String, isGroup: Bool = false, joined: Bool = true, canJoin: Bool = false, canForfeit: Bool = false,
            participants: [Participant] = []
        ) {
            self.id = id
            self.summary = summary
            self.firstDay = firstDay
            self.lastDay = lastDay
            self.reward = reward
            self.penalty = penalty
            self.state = state
            self.isGroup = isGroup
            self.joined = joined
            self.canJoin = canJoin
            self.canForfeit = canForfeit
            self.participants = participants
        }
    }

    public struct Participant: Hashable, Sendable {
        public var rank: Int
        public var name: String
        public var state: ParticipantState
        public var daysKept: Int
        public var isMe: Bool

        public init(rank: Int, name: String, state: ParticipantState, daysKept: Int, isMe: Bool) {
            self.rank = rank
            self.name = name
            self.state = state
            self.daysKept = daysKept
            self.isMe = isMe
        }
    }

    /// The group's weeks: the rules, the week in progress and each member's results.
    public struct WeekData: Hashable, Sendable {
        public var rules: SettlementRules
        /// A change of the rates from a later week, when a member made one.
        public var upcoming: SettlementRulesChange?
        /// The current week's first day.
        public var current: LocalDate
        /// `WeekReminder`'s words for this member, if days wait to be sent.
        public var reminder: String?
        /// Newest week first.
        public var weeks: [Week]

        public init(
            rules: SettlementRules, upcoming: SettlementRulesChange? = nil, current: LocalDate, reminder: String?,
            weeks: [Week]
        ) {
            self.rules = rules
            self.upcoming = upcoming
            self.current = current
            self.reminder = reminder
            self.weeks = weeks
        }

        public struct Week: Hashable, Sendable {
            public var first: LocalDate
            public var members: [Member]

            public init(first: LocalDate, members: [Member]) {
                self.first = first
                self.members = members
            }
        }

        public struct Member: Hashable, Sendable {
            public var name: String
            public var isMe: Bool
            public var status: WeekResult.Status
            public var tally: WeekTally
            public var coins: Int

            public init(name: String, isMe: Bool, status: WeekResult.Status, tally: WeekTally, coins: Int) {
                self.name = name
                self.isMe = isMe
                self.status = status
                self.tally = tally
                self.coins = coins
            }
        }
    }
}

/// A challenge the challenges screen asks the application to create: the rule, span and coins;
/// the application gives it an id and its first day (tomorrow, or today from now).
public struct ChallengeRequest: Hashable, Sendable {
    public var rule: ChallengeRule
    public var days: Int
    public var reward: Int
    public var penalty: Int
    public var startNow: Bool
    /// Shared with the group (every member may join it).
    public var shared: Bool

    public init(rule: ChallengeRule, days: Int, reward: Int, penalty: Int, startNow: Bool, shared: Bool) {
        self.rule = rule
        self.days = days
        self.reward = reward
        self.penalty = penalty
        self.startNow = startNow
        self.shared = shared
    }
}
