import Foundation

/// One block of usage of one tracked app, as a monitor reports it.
///
/// Events are facts: they are stored append-only and keyed by `id`, so delivering the same
/// event twice changes nothing, and every figure (blocks, balance, history) is derived from them.
public struct UsageEvent: Hashable, Sendable, Codable, Identifiable {
    public var id: UUID
    public var appID: String
    public var category: AppCategory
    /// Usage time this event stands for (one block): 1 s to 4 h (the longest block).
    public var seconds: Int

    /// The seconds an event may stand for; anything else is refused on the way in and treated as
    /// damage on the way out, so a wild value can never overflow a total.
    public static let secondsRange = 1...(UsageRules.blockMinutesRange.upperBound * 60)
    /// The real instant the block was completed.
    public var occurredAt: Date

    public init(id: UUID, appID: String, category: AppCategory, seconds: Int, occurredAt: Date) {
        self.id = id
        self.appID = appID
        self.category = category
        self.seconds = seconds
        self.occurredAt = occurredAt
    }

    /// The order in which a day's events are applied to the balance: by time, then by id, so
    /// the same set of events always gives the same balance whatever order they arrived in.
    public static func inLedgerOrder(_ a: UsageEvent, _ b: UsageEvent) -> Bool {
        DailyLedger.OrderKey(a) < DailyLedger.OrderKey(b)
    }
}

/// Where a monitor delivers usage events. The local store is the real one.
public protocol UsageEventSink: Sendable {
    /// Stores the events durably and returns how many were new (already-stored ids are ignored).
    /// When this returns, the events are committed.
    @discardableResult
    func record(_ events: [UsageEvent]) throws -> Int
}
