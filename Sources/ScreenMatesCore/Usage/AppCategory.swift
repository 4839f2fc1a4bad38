/// Whether an app's usage spends the balance (vice) or earns it (productive).
public enum AppCategory: String, Sendable, Codable, CaseIterable {
    /// Distracting: every block counts against the daily limit and spends the balance.
    case vice
    /// Productive: every block earns balance at the exchange rate.
    case productive
}
