import Foundation
import ScreenMatesCore

/// A challenge shared with a group: any member may join it, and each participant's home decides
/// their own part from their own blocks. The group store keeps the challenge and each
/// participant's state and counts — never an app name of theirs or a block.
public struct GroupChallenge: Hashable, Sendable, Codable {
    /// The rule, span and coins; `challenge.startsAt` is when a challenge started "now" began.
    public var challenge: Challenge
    public var creatorID: UserID
    public var createdAt: Date

    public init(challenge: Challenge, creatorID: UserID, createdAt: Date) {
        self.challenge = challenge
        self.creatorID = creatorID
        self.createdAt = createdAt
    }

    public var id: String { challenge.id }
}

/// A group challenge with its participants' leaderboard (names as the group knows them).
public struct GroupChallengeBoard: Hashable, Sendable, Codable {
    public var challenge: GroupChallenge
    /// In the order they joined; `ChallengeStandings.rank` ranks them.
    public var participants: [ParticipantStanding]

    public init(challenge: GroupChallenge, participants: [ParticipantStanding]) {
        self.challenge = challenge
        self.participants = participants
    }
}

/// What a participant's home tells the group about their part in a challenge.
public struct ParticipantReport: Hashable, Sendable {
    public var challengeID: String
    public var userID: UserID
    public var state: ParticipantState
    public var daysKept: Int
    public var decidedAt: Date?

    public init(challengeID: String, userID: UserID, state: ParticipantState, daysKept: Int, decidedAt: Date?) {
        self.challengeID = challengeID
        self.userID = userID
        self.state = state
        self.daysKept = daysKept
        self.decidedAt = decidedAt
    }
}

/// A member's coins and badges as they share them: with their group always, and with everyone in
/// the same group store when `isPublic` (the `public_ranking` setting).
public struct StandingReport: Hashable, Sendable {
    public var userID: UserID
    public var displayName: DisplayName
    public var coins: Int
    public var badges: Int
    public var isPublic: Bool
    /// Increases with every report; one that is not newer than the stored one changes nothing.
    public var version: Int64
    public var updatedAt: Date

    public init(
        userID: UserID, displayName: DisplayName, coins: Int, badges: Int, isPublic: Bool, version: Int64,
        updatedAt: Date
    ) {
        self.userID = userID
        self.displayName = displayName
        self.coins = coins
        self.badges = badges
        self.isPublic = isPublic
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// A group member's coins and badges, for the group's ranking by coins.
public struct MemberCoins: Hashable, Sendable, Codable {
    public var userID: UserID
    public var coins: Int
    public var badges: Int
    public var updatedAt: Date

    public init(userID: UserID, coins: Int, badges: Int, updatedAt: Date) {
        self.userID = userID
        self.coins = coins
        self.badges = badges
        self.updatedAt = updatedAt
    }
}

/// The ranking across everyone in a group store who opted in: names, coins and badges only
/// (no user ids: an id is what a profile update is sent under).
public struct PublicRanking: Hashable, Sendable {
    /// The first `limit` standings, best first, `isMe` marking the asker's.
    public var standings: [CoinStanding]
    /// How many have opted in.
    public var total: Int
    /// The asker's rank, when they opted in (even beyond the limit).
    public var myRank: Int?

    public init(standings: [CoinStanding], total: Int, myRank: Int?) {
        self.standings = standings
        self.total = total
        self.myRank = myRank
    }
}

extension GroupStoreRules {
    /// A group challenge's id: 4–16 lower-case ASCII letters and digits.
    public static func check(challengeID id: String) throws(GroupStoreError) {
        let plain = id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }
        guard plain, (4...16).contains(id.utf8.count) else {
            throw .invalidValue(
                "A challenge id has 4–16 lower-case letters and digits; \"\(SafeText.displayable(String(id.prefix(40))))\" is not one."
            )
        }
    }

    /// The longest rule text a store keeps.
    public static let maximumRuleLength = 2000

    /// A challenge the group can keep: a valid one (`Challenge.problem`), with an id, a rule
    /// that fits, and dates every engine keeps. Readers apply it to every challenge they read
    /// (`StoredGroupChallenge`).
    public static func check(_ challenge: Challenge) throws(GroupStoreError) {
        try check(challengeID: challenge.id)
        if let problem = challenge.problem { throw .invalidValue(problem) }
        try check(date: challenge.firstDay)
        try check(date: challenge.lastDay)
        guard ruleText(challenge.rule).utf8.count <= maximumRuleLength else {
            throw .invalidValue("A challenge's rule is too long to share.")
        }
        if let startsAt = challenge.startsAt, !isStorable(startsAt) {
            throw .invalidValue("A challenge's start must be a real instant.")
        }
        let app: String? =
            switch challenge.rule {
            case .dailyBlocks(_, .app(let app)), .quietHours(.app(let app), _, _): app
            default: nil
            }
        if let app, !TextRules.isAppID(app) {
            throw .invalidValue(
                "A challenge names an app by an id of 1–\(TextRules.appIDScalars) characters shown as they are; "
                    + "\(SafeText.truncated(app, toCells: 30)) is not one.")
        }
    }

    /// A participant's report: a known state, days kept within 0…365, real instants.
    public static func check(_ report: ParticipantReport) throws(GroupStoreError) {
        try check(challengeID: report.challengeID)
        guard (0...Challenge.daysRange.upperBound).contains(report.daysKept) else {
            throw .invalidValue("Days kept are 0 to 365; \(report.daysKept) is not.")
        }
        guard report.decidedAt.map(isStorable) ?? true else {
            throw .invalidValue("A participant's decision time must be a real instant.")
        }
    }

    /// A standing's counts are within `coinsRange` and `badgesRange`.
    public static func check(_ report: StandingReport) throws(GroupStoreError) {
        guard report.coins >= 0, report.badges >= 0, isStorable(report.updatedAt) else {
            throw .invalidValue("Coins and badges cannot be negative.")
        }
        guard coinsRange.contains(report.coins), badgesRange.contains(report.badges) else {
            throw .invalidValue(
                "A member's coins are at most \(coinsRange.upperBound) and badges \(badgesRange.upperBound).")
        }
    }

    /// Settlement rules a group may set.
    public static func check(_ rules: SettlementRules) throws(GroupStoreError) {
        if let problem = rules.problem { throw .invalidValue(problem) }
    }

    /// The rule as stored: JSON, which a version that does not know a kind of rule skips.
    public static func ruleText(_ rule: ChallengeRule) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(rule)) ?? Data(), as: UTF8.self)
    }

    /// The rule from its stored text, or nil for one this version cannot read.
    public static func rule(fromText text: String) -> ChallengeRule? {
        try? JSONDecoder().decode(ChallengeRule.self, from: Data(text.utf8))
    }

    /// The most standings a public ranking returns at once.
    public static let publicRankingLimit = 1000
}

extension GroupStoreRules {
    /// Why a group's week start cannot change any more.
    public static let weekStartFixed =
        "The group's week start is fixed once a week has been settled: settled weeks must stay the weeks they were."
}
