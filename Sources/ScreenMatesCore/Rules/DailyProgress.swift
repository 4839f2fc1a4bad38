/// Today's vice blocks against the goal, as the Today panel shows them. A goal below one
/// block counts as one, so the fraction and the percent are always defined.
public struct DailyProgress: Hashable, Sendable, Codable {
    public let blocksUsed: Int
    public let goal: Int

    public init(blocksUsed: Int, goal: Int) {
        self.blocksUsed = blocksUsed
        self.goal = max(1, goal)
    }

    /// Blocks used / goal; above 1 when over the limit.
    public var fraction: Double { Double(blocksUsed) / Double(goal) }
    public var state: LimitState { LimitState(blocksUsed: blocksUsed, goal: goal) }
    public var blocksLeft: Int { max(0, goal - blocksUsed) }
    public var blocksOver: Int { max(0, blocksUsed - goal) }
    /// Whole percent, rounded down, so 74.9 % never shows as 75 %.
    public var percent: Int { blocksUsed * 100 / goal }
}
