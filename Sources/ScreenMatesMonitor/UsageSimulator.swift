import Foundation
import ScreenMatesCore

/// A seeded, deterministic stand-in for the operating system's usage monitor.
///
/// Time is cut into blocks of `blockMinutes` aligned to the epoch. What happens in a block —
/// idle, a vice app or a productive app, and the event's id — is a pure function of the seed
/// and the block, drawn from the profile's odds for that local hour. So the same seed gives the
/// same events whenever the simulation starts, and two runs that overlap produce identical
/// events for the overlap (which the store then counts once), never different events under
/// one id.
public struct UsageSimulator: Sendable {
    public let seed: UInt64
    public let apps: [TrackedApp]
    public let profile: UsageProfile
    public let blockSeconds: Int
    public let calendar: DayCalendar
    private var nextSlot: Int64

    /// - Parameters:
    ///   - start: the first block considered is the first one ending after this instant.
    public init(
        seed: UInt64, apps: [TrackedApp], profile: UsageProfile, blockMinutes: Int, calendar: DayCalendar, start: Date
    ) {
        self.seed = seed
        self.apps = apps
        self.profile = profile
        self.blockSeconds = max(60, blockMinutes * 60)
        self.calendar = calendar
        self.nextSlot = Int64((start.timeIntervalSince1970 / Double(blockSeconds)).rounded(.down))
    }

    /// The next event, skipping idle blocks; `nil` when there is no app to use, or after a
    /// simulated week of idle blocks (which only a profile of zeros can cause).
    public mutating func next() -> UsageEvent? {
        guard !apps.isEmpty else { return nil }
        let blocksPerWeek = Int64(7 * 86400 / blockSeconds)
        for _ in 0..<blocksPerWeek {
            let slot = nextSlot
            nextSlot += 1
            if let event = event(in: slot) { return event }
        }
        return nil
    }

    /// The event of block `slot`, or `nil` when the simulated person was idle.
    public func event(in slot: Int64) -> UsageEvent? {
        guard let app = app(in: slot, sticky: true) else { return nil }
        var generator = SeededGenerator(seed: mix(slot, 0x1D))
        return UsageEvent(
            id: generator.uuid(), appID: app.id, category: app.category, seconds: blockSeconds,
            occurredAt: Self.lastMoment(ofBlockEndingAt: end(of: slot)))
    }

    private func app(in slot: Int64, sticky: Bool) -> TrackedApp? {
        var generator = SeededGenerator(seed: mix(slot, 0xA5))
        let start = Date(timeIntervalSince1970: Double(slot) * Double(blockSeconds))
        let odds = profile.hours[calendar.hourAndMinute(of: start).hour]
        let roll = unit(&generator)
        let category: AppCategory
        if roll < odds.vice {
            category = .vice
        } else if roll < odds.vice + odds.productive {
            category = .productive
        } else {
            return nil
        }
        let candidates = apps.filter { $0.category == category }
        guard !candidates.isEmpty else { return nil }
        // Sessions: stay on the app of the block before (decided without this rule) most times.
        if sticky, unit(&generator) < profile.stickiness, let previous = app(in: slot - 1, sticky: false),
            previous.category == category
        {
            return previous
        }
        return candidates[Int(generator.next() % UInt64(candidates.count))]
    }

    /// An event is stamped with the last millisecond of its block, so that a block running up
    /// to the daily reset counts on the day it was used, not on the next one.
    static func lastMoment(ofBlockEndingAt end: Date) -> Date {
        end.addingTimeInterval(-0.001)
    }

    private func end(of slot: Int64) -> Date {
        Date(timeIntervalSince1970: Double(slot + 1) * Double(blockSeconds))
    }

    private func mix(_ slot: Int64, _ salt: UInt64) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (UInt64(bitPattern: slot) &* 0x9E37_79B9_7F4A_7C15) ^ salt)
        return generator.next()
    }

    private func unit(_ generator: inout SeededGenerator) -> Double {
        Double(generator.next() >> 11) / Double(UInt64(1) << 53)
    }
}
