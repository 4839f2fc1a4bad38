import Foundation

/// One entry of the coin ledger. `cause` names what made it ("challenge ab12 kept", "badge
/// streak-7"); a ledger holds one entry per cause, so replaying a cause adds nothing.
public struct CoinTransaction: Hashable, Sendable, Codable {
    public var cause: String
    /// What the cause asked for: positive to win, negative to lose.
    public var asked: Int
    /// What was booked: a loss larger than the balance takes only what is there.
    public var amount: Int
    public var reason: String
    public var at: Date

    public init(cause: String, asked: Int, amount: Int, reason: String, at: Date) {
        self.cause = cause
        self.asked = asked
        self.amount = amount
        self.reason = reason
        self.at = at
    }
}

/// The coin ledger's arithmetic: append-only, one entry per cause, a balance that is the sum
/// of the entries and never goes below zero. The sum saturates: entries come from what a group
/// store said a week was worth, and no entry can make it trap.
public struct CoinLedger: Hashable, Sendable {
    public private(set) var transactions: [CoinTransaction]

    public init(_ transactions: [CoinTransaction] = []) {
        self.transactions = transactions
    }

    public var balance: Int { transactions.lazy.map(\.amount).saturatingSum() }

    /// Books `asked` coins for `cause`, unless the cause was booked before (then it returns
    /// nil and changes nothing). A loss takes at most the balance.
    @discardableResult
    public mutating func book(cause: String, asked: Int, reason: String, at: Date) -> CoinTransaction? {
        guard !transactions.contains(where: { $0.cause == cause }) else { return nil }
        let transaction = CoinTransaction(
            cause: cause, asked: asked, amount: Self.amount(asked: asked, balance: balance), reason: reason, at: at)
        transactions.append(transaction)
        return transaction
    }

    /// What a request of `asked` coins books on `balance`: a win whole, a loss up to the balance.
    public static func amount(asked: Int, balance: Int) -> Int {
        asked >= 0 ? asked : max(asked, -max(0, balance))
    }
}
