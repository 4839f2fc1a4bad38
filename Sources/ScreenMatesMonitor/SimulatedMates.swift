import Foundation
import ScreenMatesCore

/// Group-mates simulated in one process, for the demo's live leaderboard: each mate is a seeded
/// `UsageSimulator` of a temperament of its own (some keep under the goal, some go over), and
/// `advance(to:)` counts each mate's vice blocks of the day up to the app clock's now, so 200 of
/// them cost a few block lookups per tick, not 200 monitors.
///
/// Pure: the caller reports what changed (to a group store) and sleeps; the same seed gives the
/// same mates, days and streaks whenever it starts.
public struct SimulatedMates: Sendable {
    /// One mate: who it is and its numbers so far.
    public struct Mate: Sendable {
        public let userID: UserID
        public let name: DisplayName
        /// The day `viceBlocks` counts.
        public fileprivate(set) var day: LocalDate
        public fileprivate(set) var viceBlocks: Int
        public fileprivate(set) var streak: Int
        public fileprivate(set) var lastActive: Date?
        fileprivate let simulator: UsageSimulator
        /// The first block not counted yet.
        fileprivate var nextSlot: Int64
    }

    /// A day a mate finished, for the week's and the month's leaderboards.
    public struct FinishedDay: Hashable, Sendable {
        public let userID: UserID
        public let date: LocalDate
        public let viceBlocks: Int
    }

    /// What one `advance` changed.
    public struct Advance: Hashable, Sendable {
        /// Indexes of the mates whose numbers changed.
        public var changed: [Int] = []
        public var finished: [FinishedDay] = []
    }

    public private(set) var mates: [Mate]
    public let calendar: DayCalendar
    public let goal: Int
    private let blockSeconds: Int

    /// The apps a mate uses: only their category matters (a mate's app names are never shared).
    static let apps = [
        TrackedApp(id: "mate-vice", name: "Scrolling", bundleID: "mate.vice", category: .vice),
        TrackedApp(id: "mate-work", name: "Work", bundleID: "mate.work", category: .productive),
    ]

    /// Mates named `names` with the user ids `ids` (as many), whose usage follows `profile`
    /// scaled by a temperament drawn from `seed`; their day is the one holding `now` and counts
    /// from its start.
    public init(
        names: [DisplayName], ids: [UserID], seed: UInt64, profile: UsageProfile, blockMinutes: Int, goal: Int,
        calendar: DayCalendar, now: Date
    ) {
        precondition(names.count == ids.count, "a user id for every name")
        self.calendar = calendar
        self.goal = goal
        blockSeconds = max(60, blockMinutes * 60)
        let today = calendar.day(containing: now)
        let firstSlot = Self.slot(at: calendar.start(of: today), blockSeconds: max(60, blockMinutes * 60))
        mates = zip(names, ids).enumerated().map { index, mate in
            var generator = SeededGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            // From a third of the profile's vice use to one and a half times it.
            let temperament = 0.35 + Double(generator.next() % 1000) / 1000 * 1.15
            let simulator = UsageSimulator(
                seed: generator.next(), apps: Self.apps, profile: profile.scalingVice(by: temperament),
                blockMinutes: blockMinutes, calendar: calendar, start: now)
            return Mate(
                userID: mate.1, name: mate.0, day: today, viceBlocks: 0, streak: Int(generator.next() % 15),
                lastActive: nil, simulator: simulator, nextSlot: firstSlot)
        }
    }

    /// Counts every block that has ended by `now`. A mate's day that ends is finished (its
    /// streak goes on when it kept within the goal, and a day without use counts as kept); a
    /// clock that jumped more than a day ahead skips the days between (kept, as no use).
    public mutating func advance(to now: Date) -> Advance {
        var advance = Advance()
        let today = calendar.day(containing: now)
        let endSlot = Self.slot(at: now, blockSeconds: blockSeconds)
        let earliest = Self.slot(at: calendar.start(of: today.adding(days: -1)), blockSeconds: blockSeconds)
        for index in mates.indices {
            var mate = mates[index]
            let before = (mate.day, mate.viceBlocks, mate.streak, mate.lastActive)
            mate.nextSlot = max(mate.nextSlot, min(earliest, endSlot))
            while mate.nextSlot < endSlot {
                let slot = mate.nextSlot
                mate.nextSlot += 1
                guard let event = mate.simulator.event(in: slot) else { continue }
                let day = calendar.day(containing: event.occurredAt)
                if day != mate.day { finish(&mate, until: day, into: &advance) }
                if event.category == .vice {
                    mate.viceBlocks += 1
                    mate.lastActive = event.occurredAt
                }
            }
            if today > mate.day { finish(&mate, until: today, into: &advance) }
            mates[index] = mate
            if before != (mate.day, mate.viceBlocks, mate.streak, mate.lastActive) { advance.changed.append(index) }
        }
        return advance
    }

    /// Each mate's vice blocks on each day of `days` (days before the mates' first), for the
    /// week's and the month's leaderboards.
    public func history(_ days: ClosedRange<LocalDate>) -> [FinishedDay] {
        var finished: [FinishedDay] = []
        for mate in mates {
            var day = days.lowerBound
            while day <= days.upperBound {
                let interval = calendar.interval(of: day)
                var slot = Self.slot(at: interval.lowerBound, blockSeconds: blockSeconds)
                let end = Self.slot(at: interval.upperBound, blockSeconds: blockSeconds)
                var blocks = 0
                while slot < end {
                    if let event = mate.simulator.event(in: slot), event.category == .vice,
                        calendar.day(containing: event.occurredAt) == day
                    {
                        blocks += 1
                    }
                    slot += 1
                }
                finished.append(FinishedDay(userID: mate.userID, date: day, viceBlocks: blocks))
                day = day.adding(days: 1)
            }
        }
        return finished
    }

    /// The app-clock instant the next block ends (when `advance` may change something).
    public func nextBlockEnd(after now: Date) -> Date {
        Date(timeIntervalSince1970: Double(Self.slot(at: now, blockSeconds: blockSeconds) + 1) * Double(blockSeconds))
    }

    private func finish(_ mate: inout Mate, until day: LocalDate, into advance: inout Advance) {
        advance.finished.append(FinishedDay(userID: mate.userID, date: mate.day, viceBlocks: mate.viceBlocks))
        mate.streak =
            mate.viceBlocks <= goal ? mate.streak + mate.day.days(to: day) : max(0, mate.day.days(to: day) - 1)
        mate.day = day
        mate.viceBlocks = 0
    }

    private static func slot(at instant: Date, blockSeconds: Int) -> Int64 {
        Int64((instant.timeIntervalSince1970 / Double(blockSeconds)).rounded(.down))
    }
}

extension UsageProfile {
    /// The same day with the odds of vice use multiplied by `factor` (and the productive odds
    /// trimmed where the two would pass 1).
    func scalingVice(by factor: Double) -> UsageProfile {
        var scaled = self
        scaled.hours = hours.map { hour in
            let vice = min(1, hour.vice * factor)
            return Hour(vice: vice, productive: min(hour.productive, 1 - vice))
        }
        return scaled
    }
}
