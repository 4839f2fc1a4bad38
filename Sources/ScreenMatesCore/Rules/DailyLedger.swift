import Foundation

/// One day's usage folded into the figures the dashboard shows: blocks, earned, spent, the
/// balance and the overdraft.
///
/// The balance starts the day at zero and never goes below it: productive seconds earn
/// `seconds × exchangeRate`; vice seconds spend, and whatever the balance cannot cover is
/// overdraft. Because the result depends on order, events are applied in ledger order (time,
/// then id); `fold` sorts, and `apply` refuses an event that would break the order.
public struct DailyLedger: Hashable, Sendable, Codable {
    public private(set) var viceBlocks = 0
    public private(set) var productiveBlocks = 0
    public private(set) var earnedSeconds = 0
    public private(set) var spentSeconds = 0
    public private(set) var balanceSeconds = 0
    public private(set) var overdraftSeconds = 0
    public private(set) var eventCount = 0
    /// The last event applied, in ledger order; a later-arriving earlier event needs a refold.
    public private(set) var lastApplied: OrderKey?

    public struct OrderKey: Hashable, Sendable, Codable, Comparable {
        public let occurredAt: Date
        public let id: String

        public init(_ event: UsageEvent) {
            occurredAt = event.occurredAt
            id = event.id.uuidString
        }

        public static func < (a: OrderKey, b: OrderKey) -> Bool {
            a.occurredAt != b.occurredAt ? a.occurredAt < b.occurredAt : a.id < b.id
        }
    }

    public init() {}

    /// A day judged whole, when the order of its blocks is not known: the balance is what was
    /// earned less what was spent, never below zero; what it cannot cover is overdraft.
    public static func wholeDay(earned: Int, spent: Int) -> (balance: Int, overdraft: Int) {
        let left = earned.saturatingAdding(spent.saturatingNegated)
        return (max(0, left), max(0, left.saturatingNegated))
    }

    /// What `blocks` productive blocks of `blockSeconds` earn at `exchangeRate`, as `apply` earns
    /// them one by one.
    public static func earned(_ blocks: Int, blockSeconds: Int, exchangeRate: Double) -> Int {
        let one = Int((Double(max(0, blockSeconds)) * exchangeRate).rounded())
        return max(0, blocks).saturatingMultiplied(by: one)
    }

    /// The ledger of a set of events, whatever order they come in.
    public static func fold(_ events: [UsageEvent], exchangeRate: Double) -> DailyLedger {
        var ledger = DailyLedger()
        for event in events.sorted(by: UsageEvent.inLedgerOrder) {
            _ = ledger.apply(event, exchangeRate: exchangeRate)
        }
        return ledger
    }

    /// Whether `event` can be applied on top of this ledger without refolding the day.
    public func canAppend(_ event: UsageEvent) -> Bool {
        guard let last = lastApplied else { return true }
        return last < OrderKey(event)
    }

    /// Applies one event that comes after every event already applied. Returns `false` (and
    /// changes nothing) when the event is out of order; the caller then refolds the day.
    @discardableResult
    public mutating func apply(_ event: UsageEvent, exchangeRate: Double) -> Bool {
        guard canAppend(event) else { return false }
        let seconds = max(0, event.seconds)
        switch event.category {
        case .productive:
            let earned = Int((Double(seconds) * exchangeRate).rounded())
            productiveBlocks += 1
            earnedSeconds += earned
            balanceSeconds += earned
        case .vice:
            viceBlocks += 1
            spentSeconds += seconds
            let covered = min(balanceSeconds, seconds)
            balanceSeconds -= covered
            overdraftSeconds += seconds - covered
        }
        eventCount += 1
        lastApplied = OrderKey(event)
        return true
    }

    /// The member's day: this ledger with the blocks (of `blockSeconds` each) used on the member's
    /// other machines counted in. When in the day those were used is not known, so the day is
    /// judged whole: the balance is what all the machines earned less what they all spent, never
    /// below zero, and what it cannot cover is overdraft. Every machine of the member's, counting
    /// the others into its own day, comes to the same figures (even where the others used nothing).
    public func withOtherMachines(
        viceBlocks blocks: Int, productiveBlocks: Int, blockSeconds: Int, exchangeRate: Double
    ) -> DailyLedger {
        var member = self
        let earned = Self.earned(productiveBlocks, blockSeconds: blockSeconds, exchangeRate: exchangeRate)
        let spent = max(0, blocks).saturatingMultiplied(by: max(0, blockSeconds))
        member.productiveBlocks = self.productiveBlocks.saturatingAdding(max(0, productiveBlocks))
        member.viceBlocks = viceBlocks.saturatingAdding(max(0, blocks))
        member.earnedSeconds = earnedSeconds.saturatingAdding(earned)
        member.spentSeconds = spentSeconds.saturatingAdding(spent)
        (member.balanceSeconds, member.overdraftSeconds) = Self.wholeDay(
            earned: member.earnedSeconds, spent: member.spentSeconds)
        return member
    }
}
