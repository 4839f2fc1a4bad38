/// The user's numbers that turn events into blocks, balance and limits.
public struct UsageRules: Hashable, Sendable, Codable {
    /// Minutes of usage in one block (default 15).
    public var blockMinutes: Int
    /// Balance seconds earned per productive second (default 1.0).
    public var exchangeRate: Double
    /// The daily limit in vice blocks (the group's goal, or the user's own without a group).
    public var dailyGoalBlocks: Int

    public static let blockMinutesRange = 1...240
    public static let exchangeRateRange = 0.0...10.0
    public static let dailyGoalRange = 1...96

    public init(blockMinutes: Int = 15, exchangeRate: Double = 1.0, dailyGoalBlocks: Int = 8) {
        self.blockMinutes = blockMinutes
        self.exchangeRate = exchangeRate
        self.dailyGoalBlocks = dailyGoalBlocks
    }

    public var blockSeconds: Int { blockMinutes * 60 }
}
