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

    /// The member's day: this ledger with `viceBlocks` blocks of `blockSeconds` used on the
    /// member's other machines counted in after it. They spend from the balance as this machine's
    /// own vice blocks would; what it cannot cover is overdraft. (The other machines' productive
    /// time stays on them: the group store holds their vice blocks only.)
    public func withOtherMachines(viceBlocks blocks: Int, blockSeconds: Int) -> DailyLedger {
        guard blocks > 0 else { return self }
        var member = self
        let seconds = blocks.saturatingMultiplied(by: max(0, blockSeconds))
        member.viceBlocks = viceBlocks.saturatingAdding(blocks)
        member.spentSeconds = spentSeconds.saturatingAdding(seconds)
        let covered = min(balanceSeconds, seconds)
        member.balanceSeconds = balanceSeconds - covered
        member.overdraftSeconds = overdraftSeconds.saturatingAdding(seconds - covered)
        return member
    }
}
