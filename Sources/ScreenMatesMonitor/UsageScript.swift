import Foundation
import ScreenMatesCore

/// A scripted day: at given local times, so many blocks of an app. `assets/scenarios/*.json`
/// files with `steps` are scripts (those with `hours` are usage profiles).
public struct UsageScript: Hashable, Sendable, Codable {
    public struct Step: Hashable, Sendable, Codable {
        /// Local wall-clock time `HH:MM` at which the first block starts; a time before the
        /// day-start hour belongs to the end of the day.
        public var at: String
        /// The app's id (from the catalogue, or any id).
        public var app: String
        public var category: AppCategory
        /// Consecutive blocks from `at`.
        public var blocks: Int

        public init(at: String, app: String, category: AppCategory, blocks: Int) {
            self.at = at
            self.app = app
            self.category = category
            self.blocks = blocks
        }

        var time: (hour: Int, minute: Int)? {
            let parts = at.split(separator: ":")
            guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour),
                (0...59).contains(minute)
            else { return nil }
            return (hour, minute)
        }
    }

    public var name: String
    public var summary: String
    public var steps: [Step]

    public init(name: String, summary: String = "", steps: [Step]) {
        self.name = name
        self.summary = summary
        self.steps = steps
    }

    public func validated() throws(UsageScenarioError) -> UsageScript {
        guard !steps.isEmpty else { throw .emptyScript(name: name) }
        for (index, step) in steps.enumerated() {
            guard step.time != nil else { throw .badStep(name: name, step: index + 1, detail: "at must be HH:MM") }
            guard (1...96).contains(step.blocks) else {
                throw .badStep(name: name, step: index + 1, detail: "blocks must be between 1 and 96")
            }
            guard !step.app.isEmpty, !SafeText.hasUnsafeCharacters(step.app) else {
                throw .badStep(name: name, step: index + 1, detail: "app must be a plain, non-empty id")
            }
        }
        return self
    }
}

/// Plays a script day after day, from the day containing the start instant. Events of the
/// first day that lie before the start are delivered at once, as a monitor catching up would;
/// ids are a function of the seed, the day and the block, so a replay gives the same events.
public struct ScriptedDay: UsageSource {
    public let script: UsageScript
    public let seed: UInt64
    public let blockSeconds: Int
    public let calendar: DayCalendar
    private var day: LocalDate
    private var pending: [UsageEvent] = []

    public init(script: UsageScript, seed: UInt64, blockMinutes: Int, calendar: DayCalendar, start: Date) {
        self.script = script
        self.seed = seed
        self.blockSeconds = max(60, blockMinutes * 60)
        self.calendar = calendar
        self.day = calendar.day(containing: start)
    }

    public mutating func next(now: Date) -> UsageEvent? {
        if pending.isEmpty {
            pending = events(of: day)
            day = day.adding(days: 1)
        }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Every event the script makes on `day`, in time order.
    public func events(of day: LocalDate) -> [UsageEvent] {
        var events: [UsageEvent] = []
        for (stepIndex, step) in script.steps.enumerated() {
            guard let time = step.time else { continue }
            let date = time.hour < calendar.dayStartHour ? day.adding(days: 1) : day
            let first = calendar.instant(on: date, hour: time.hour, minute: time.minute)
            for block in 0..<step.blocks {
                let dayPart = UInt64(bitPattern: Int64(day.dayNumber)) &* 0x9E37_79B9_7F4A_7C15
                let blockPart = (UInt64(stepIndex) << 32) ^ (UInt64(block) &* 0xBF58_476D_1CE4_E5B9)
                var generator = SeededGenerator(seed: seed ^ dayPart ^ blockPart)
                events.append(
                    UsageEvent(
                        id: generator.uuid(), appID: step.app, category: step.category, seconds: blockSeconds,
                        occurredAt: UsageSimulator.lastMoment(
                            ofBlockEndingAt: first.addingTimeInterval(Double(blockSeconds * (block + 1))))))
            }
        }
        return events.sorted(by: UsageEvent.inLedgerOrder)
    }
}
