import Foundation
import ScreenMatesCore

/// The group's challenges, coins and weeks as last read from the group store: what the
/// challenge, ranking and week commands and screens show, cached for offline use.
public struct GroupGamesSnapshot: Hashable, Sendable, Codable {
    public var boards: [GroupChallengeBoard]
    public var coins: [MemberCoins]
    /// The group's own settlement rules (`schedule` with the changes still to come).
    public var rules: SettlementRules
    /// The changes of the rates still to come, oldest first.
    public var ruleChanges: [SettlementRulesChange]
    /// Every member's results for the weeks shown (the app shows the last twelve, fewer in a group
    /// of over a thousand members: `GroupGames.weeksShown`), oldest first.
    public var weeks: [WeekResult]
    public var fetchedAt: Date
    /// The rows the store left out of all this (and of the settlement) as they could not be right.
    public var leftOut: [LeftOutRow]
    /// The group's change mark this is complete up to (read before the rows), when known.
    public var mark: Int64?
    /// The first of the weeks `weeks` covers.
    public var firstWeek: LocalDate?

    public init(
        boards: [GroupChallengeBoard], coins: [MemberCoins], rules: SettlementRules,
        ruleChanges: [SettlementRulesChange] = [], weeks: [WeekResult], fetchedAt: Date, leftOut: [LeftOutRow] = [],
        mark: Int64? = nil, firstWeek: LocalDate? = nil
    ) {
        self.boards = boards
        self.coins = coins
        self.rules = rules
        self.ruleChanges = ruleChanges
        self.weeks = weeks
        self.fetchedAt = fetchedAt
        self.leftOut = leftOut
        self.mark = mark
        self.firstWeek = firstWeek
    }

    private enum CodingKeys: String, CodingKey {
        case boards, coins, rules, ruleChanges, weeks, fetchedAt, leftOut, mark, firstWeek
    }

    /// The group's rules over time.
    public var schedule: SettlementSchedule {
        get { SettlementSchedule(rules: rules, changes: ruleChanges) }
        set {
            rules = newValue.rules
            ruleChanges = newValue.changes
        }
    }

    /// The games with rows changed since merged in: a board, a member's coins, a member's week
    /// replace their old selves (a new board goes first: boards are newest first).
    public func merging(boards changed: [GroupChallengeBoard], coins: [MemberCoins], weeks: [WeekResult]) -> Self {
        var merged = self
        for board in changed.reversed() {
            if let index = merged.boards.firstIndex(where: { $0.challenge.id == board.challenge.id }) {
                merged.boards[index] = board
            } else {
                merged.boards.insert(board, at: 0)
            }
        }
        for standing in coins {
            if let index = merged.coins.firstIndex(where: { $0.userID == standing.userID }) {
                merged.coins[index] = standing
            } else {
                merged.coins.append(standing)
                merged.coins.sort { $0.userID < $1.userID }
            }
        }
        for result in weeks {
            if let index = merged.weeks.firstIndex(where: { $0.week == result.week && $0.userID == result.userID }) {
                merged.weeks[index] = result
            } else {
                merged.weeks.append(result)
                merged.weeks.sort { ($0.week, $0.userID) < ($1.week, $1.userID) }
            }
        }
        return merged
    }

    /// Games cached before rows were left out have none, before marks none, and before changes
    /// of the rules waited for the next week none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        boards = try container.decode([GroupChallengeBoard].self, forKey: .boards)
        coins = try container.decode([MemberCoins].self, forKey: .coins)
        rules = try container.decode(SettlementRules.self, forKey: .rules)
        ruleChanges = try container.decodeIfPresent([SettlementRulesChange].self, forKey: .ruleChanges) ?? []
        weeks = try container.decode([WeekResult].self, forKey: .weeks)
        fetchedAt = try container.decode(Date.self, forKey: .fetchedAt)
        leftOut = try container.decodeIfPresent([LeftOutRow].self, forKey: .leftOut) ?? []
        mark = try container.decodeIfPresent(Int64.self, forKey: .mark)
        firstWeek = try container.decodeIfPresent(LocalDate.self, forKey: .firstWeek)
    }
}
