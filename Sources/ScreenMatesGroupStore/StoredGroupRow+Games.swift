import Foundation
import ScreenMatesCore

/// A group challenge as stored: its rule as JSON text, which another member may have written.
/// Kept only when the rule reads and makes sense (`GroupStoreRules.check`), so no judge and no
/// screen ever sees "at most −1 blocks" or a span of a million days.
public struct StoredGroupChallenge: StoredGroupRow {
    public var id: String
    public var creatorID: String
    public var rule: String
    public var firstDay: Int64
    public var days: Int64
    public var reward: Int64
    public var penalty: Int64
    public var startsAt: Int64?
    public var createdAt: Int64

    public init(
        id: String, creatorID: String, rule: String, firstDay: Int64, days: Int64, reward: Int64, penalty: Int64,
        startsAt: Int64?, createdAt: Int64
    ) {
        self.id = id
        self.creatorID = creatorID
        self.rule = rule
        self.firstDay = firstDay
        self.days = days
        self.reward = reward
        self.penalty = penalty
        self.startsAt = startsAt
        self.createdAt = createdAt
    }

    public func checked() throws(LeftOutRow) -> GroupChallenge {
        let check = RowCheck(kind: .challenge, key: id)
        guard rule.utf8.count <= GroupStoreRules.maximumRuleLength else {
            throw check.fail("its rule is \(rule.utf8.count) bytes long, more than a rule can be")
        }
        guard let decoded = GroupStoreRules.rule(fromText: rule) else {
            throw check.fail("its rule is not one this version can read (malformed, or from a newer version)")
        }
        if case .dailyBlocks(_, .app(let app)) = decoded { try Self.check(app: app, check) }
        if case .quietHours(.app(let app), _, _) = decoded { try Self.check(app: app, check) }
        let challenge = Challenge(
            id: id, rule: decoded, firstDay: try check.date(firstDay, "first_day"),
            days: try check.count(days, "days", in: Challenge.daysRange, what: "a challenge lasts"),
            reward: try check.count(reward, "reward", in: Challenge.coinsRange, what: "a reward is"),
            penalty: try check.count(penalty, "penalty", in: Challenge.coinsRange, what: "a penalty is"),
            startsAt: try check.optionalInstant(startsAt, "starts_at"))
        do {
            try GroupStoreRules.check(challenge)
        } catch {
            throw check.fail(error.message)
        }
        return GroupChallenge(
            challenge: challenge, creatorID: try check.userID(creatorID, column: "creator_id"),
            createdAt: try check.instant(createdAt, "created_at"))
    }

    /// An app a shared rule names: shown to every member, so short and plain.
    private static func check(app: String, _ check: RowCheck) throws(LeftOutRow) {
        guard TextRules.isAppID(app) else {
            throw check.fail("its rule names the app \(LeftOutRow.quoted(app)), which is not an app id")
        }
    }
}

/// A participant's part in a group challenge, with their name as the group knows it.
public struct StoredParticipant: StoredGroupRow {
    public var challengeID: String
    public var userID: String
    public var displayName: String
    public var state: String
    public var daysKept: Int64
    public var joinedAt: Int64
    public var decidedAt: Int64?

    public init(
        challengeID: String, userID: String, displayName: String, state: String, daysKept: Int64, joinedAt: Int64,
        decidedAt: Int64?
    ) {
        self.challengeID = challengeID
        self.userID = userID
        self.displayName = displayName
        self.state = state
        self.daysKept = daysKept
        self.joinedAt = joinedAt
        self.decidedAt = decidedAt
    }

    public func checked() throws(LeftOutRow) -> ParticipantStanding {
        let check = RowCheck(kind: .participant, key: "\(challengeID) \(userID)")
        return ParticipantStanding(
            userID: try check.userID(userID), name: try check.name(displayName).value,
            state: try check.word(state, "state", as: ParticipantState.self),
            daysKept: try check.count(
                daysKept, "days_kept", in: 0...Challenge.daysRange.upperBound, what: "days kept are"),
            joinedAt: try check.instant(joinedAt, "joined_at"),
            decidedAt: try check.optionalInstant(decidedAt, "decided_at"))
    }
}

/// A group member's coins and badges.
public struct StoredCoins: StoredGroupRow {
    public var userID: String
    public var coins: Int64
    public var badges: Int64
    public var updatedAt: Int64

    public init(userID: String, coins: Int64, badges: Int64, updatedAt: Int64) {
        self.userID = userID
        self.coins = coins
        self.badges = badges
        self.updatedAt = updatedAt
    }

    public func checked() throws(LeftOutRow) -> MemberCoins {
        let check = RowCheck(kind: .coins, key: userID)
        return MemberCoins(
            userID: try check.userID(userID),
            coins: try check.count(coins, "coins", in: GroupStoreRules.coinsRange, what: "coins are"),
            badges: try check.count(badges, "badges", in: GroupStoreRules.badgesRange, what: "badges are"),
            updatedAt: try check.instant(updatedAt, "updated_at"))
    }
}

/// A line of the public ranking: a name, coins and badges (no user id leaves a store through it).
public struct StoredPublicStanding: StoredGroupRow {
    public var displayName: String
    public var coins: Int64
    public var badges: Int64
    public var isMe: Bool

    public init(displayName: String, coins: Int64, badges: Int64, isMe: Bool) {
        self.displayName = displayName
        self.coins = coins
        self.badges = badges
        self.isMe = isMe
    }

    public func checked() throws(LeftOutRow) -> CoinStanding {
        let check = RowCheck(kind: .publicStanding, key: displayName)
        return CoinStanding(
            userID: nil, name: try check.name(displayName).value,
            coins: try check.count(coins, "coins", in: GroupStoreRules.coinsRange, what: "coins are"),
            badges: try check.count(badges, "badges", in: GroupStoreRules.badgesRange, what: "badges are"), isMe: isMe)
    }
}

/// One member's result for one week. Its coins must be what its days can bring at the highest
/// rates a group may set, so a forged result can never book more (or take more) than a real one.
public struct StoredWeekResult: StoredGroupRow {
    public var userID: String
    public var week: Int64
    public var status: String
    public var keptDays: Int64
    public var overDays: Int64
    public var missingDays: Int64
    public var coins: Int64
    public var rule: String
    public var settledAt: Int64?

    public init(
        userID: String, week: Int64, status: String, keptDays: Int64, overDays: Int64, missingDays: Int64,
        coins: Int64, rule: String, settledAt: Int64?
    ) {
        self.userID = userID
        self.week = week
        self.status = status
        self.keptDays = keptDays
        self.overDays = overDays
        self.missingDays = missingDays
        self.coins = coins
        self.rule = rule
        self.settledAt = settledAt
    }

    public func checked() throws(LeftOutRow) -> WeekResult {
        let day = StoredDayTotal(userID: userID, date: week, viceBlocks: 0, goalBlocks: 0, version: 0)
        let check = RowCheck(kind: .weekResult, key: day.key)
        let days = GroupStoreRules.weekDaysRange
        let tally = WeekTally(
            keptDays: try check.count(keptDays, "kept_days", in: days, what: "a week counts"),
            overDays: try check.count(overDays, "over_days", in: days, what: "a week counts"),
            missingDays: try check.count(missingDays, "missing_days", in: days, what: "a week counts"))
        guard days.contains(tally.keptDays + tally.overDays + tally.missingDays) else {
            throw check.fail("it counts \(tally.keptDays + tally.overDays + tally.missingDays) days in a week")
        }
        let rate = SettlementRules.coinsRange.upperBound
        let possible = -((tally.overDays + tally.missingDays) * rate)...(tally.keptDays * rate)
        let amount = try check.count(coins, "coins", in: possible, what: "its days bring")
        let status = try check.word(status, "status", as: WeekResult.Status.self)
        if status == .pending && amount != 0 { throw check.fail("a pending week brings 0 coins, not \(amount)") }
        return WeekResult(
            userID: try check.userID(userID), week: try check.date(week, "week"), status: status, tally: tally,
            coins: amount, rule: try check.word(rule, "rule", as: MissingDaysRule.self),
            settledAt: try check.optionalInstant(settledAt, "settled_at"))
    }
}

/// A group's settlement rules. Rules that make no sense are left out: the group's weeks are
/// shown by the standard rules and none is settled until a member sets them again.
public struct StoredSettlementRules: StoredGroupRow {
    public var code: String
    public var weekStart: Int64
    public var keptDayCoins: Int64
    public var overDayCoins: Int64
    public var missingDays: String

    public init(code: String, weekStart: Int64, keptDayCoins: Int64, overDayCoins: Int64, missingDays: String) {
        self.code = code
        self.weekStart = weekStart
        self.keptDayCoins = keptDayCoins
        self.overDayCoins = overDayCoins
        self.missingDays = missingDays
    }

    public func checked() throws(LeftOutRow) -> SettlementRules {
        let check = RowCheck(kind: .settlementRules, key: code)
        let coins = SettlementRules.coinsRange
        return SettlementRules(
            weekStart: try check.count(
                weekStart, "week_start", in: SettlementRules.weekStartRange, what: "a week starts on weekday"),
            keptDayCoins: try check.count(keptDayCoins, "kept_day_coins", in: coins, what: "a kept day earns"),
            overDayCoins: try check.count(overDayCoins, "over_day_coins", in: coins, what: "a day over costs"),
            missingDays: try check.word(missingDays, "missing_days", as: MissingDaysRule.self))
    }
}

/// A change of a group's settlement rates still to come, from the first day of the week it
/// governs first. One that makes no sense is left out: the weeks are settled by the rules before it.
public struct StoredRulesChange: StoredGroupRow {
    public var code: String
    /// The group's week start, as read with its rules.
    public var weekStart: Int
    public var fromDay: Int64
    public var keptDayCoins: Int64
    public var overDayCoins: Int64
    public var missingDays: String

    public init(
        code: String, weekStart: Int, fromDay: Int64, keptDayCoins: Int64, overDayCoins: Int64, missingDays: String
    ) {
        self.code = code
        self.weekStart = weekStart
        self.fromDay = fromDay
        self.keptDayCoins = keptDayCoins
        self.overDayCoins = overDayCoins
        self.missingDays = missingDays
    }

    public func checked() throws(LeftOutRow) -> SettlementRulesChange {
        let check = RowCheck(kind: .rulesChange, key: "\(code) \(fromDay)")
        let coins = SettlementRules.coinsRange
        return SettlementRulesChange(
            from: try check.date(fromDay, "from_day"),
            rules: SettlementRules(
                weekStart: weekStart,
                keptDayCoins: try check.count(keptDayCoins, "kept_day_coins", in: coins, what: "a kept day earns"),
                overDayCoins: try check.count(overDayCoins, "over_day_coins", in: coins, what: "a day over costs"),
                missingDays: try check.word(missingDays, "missing_days", as: MissingDaysRule.self)))
    }
}
