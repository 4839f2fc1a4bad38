import Foundation

/// What a challenge is about: one app, or every vice app.
public enum ChallengeTarget: Hashable, Sendable, Codable {
    case app(String)
    case allVice

    /// Whether a block counts for this target.
    public func matches(_ event: UsageEvent) -> Bool {
        switch self {
        case .app(let id): event.appID == id
        case .allVice: event.category == .vice
        }
    }
}

/// A wall-clock time of day, minutes after midnight.
public struct TimeOfDay: Hashable, Sendable, Codable, Comparable {
    public let minutes: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        minutes = hour * 60 + minute
    }

    /// `HH:MM`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var text: String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minutes < rhs.minutes }

    private enum CodingKeys: String, CodingKey {
        case minutes
    }

    /// Decoded as it is encoded (`{"minutes": 1320}`), but only a minute of a day: a rule read
    /// from a file or a server cannot hold 25:00.
    public init(from decoder: any Decoder) throws {
        let minutes = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .minutes)
        guard let time = TimeOfDay(hour: minutes / 60, minute: minutes % 60), minutes >= 0 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(minutes) is not a minute of a day"))
        }
        self = time
    }
}

/// The rule a challenge holds its participant to, over each day of its span.
public enum ChallengeRule: Hashable, Sendable, Codable {
    /// At most `max` blocks of `target` a day.
    case dailyBlocks(max: Int, target: ChallengeTarget)
    /// No block of `target` completed between `from` and `until` (wall clock; past midnight
    /// when `until` is earlier than `from`).
    case quietHours(target: ChallengeTarget, from: TimeOfDay, until: TimeOfDay)
    /// Every day of the span within the daily limit: a streak as long as the span.
    case streak
}

extension ChallengeRule {
    /// Whether `instant` falls inside quiet hours from `from` until `until` on the wall clock of
    /// `calendar` (past midnight when `until` is earlier than `from`).
    static func isQuiet(_ instant: Date, from: TimeOfDay, until: TimeOfDay, calendar: DayCalendar) -> Bool {
        let wall = calendar.hourAndMinute(of: instant)
        let minute = wall.hour * 60 + wall.minute
        return from < until
            ? (from.minutes..<until.minutes).contains(minute) : minute >= from.minutes || minute < until.minutes
    }
}

/// A challenge: a rule over a span of whole days, with coins at stake.
public struct Challenge: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    public var rule: ChallengeRule
    public var firstDay: LocalDate
    public var days: Int
    /// Coins won when the span ends with the rule kept.
    public var reward: Int
    /// Coins lost when the rule is broken or the challenge is given up.
    public var penalty: Int
    /// For a challenge started "now": blocks before this instant of its first day do not count.
    public var startsAt: Date?

    /// The limits a challenge must stay within to be accepted.
    public static let daysRange = 1...365
    public static let coinsRange = 0...10_000
    public static let maxBlocksRange = 0...96

    public init(
        id: String, rule: ChallengeRule, firstDay: LocalDate, days: Int, reward: Int, penalty: Int,
        startsAt: Date? = nil
    ) {
        self.id = id
        self.rule = rule
        self.firstDay = firstDay
        self.days = days
        self.reward = reward
        self.penalty = penalty
        self.startsAt = startsAt
    }

    public var lastDay: LocalDate { firstDay.adding(days: days - 1) }

    /// The years a challenge's first day may fall in: every day of a span within them has a
    /// date every store keeps, and no arithmetic on them can overflow.
    public static let yearsRange = 1...9998

    /// What is wrong with it, if anything, in words for the person who set it up. A challenge
    /// with a problem is never stored nor judged.
    public var problem: String? {
        if !Self.daysRange.contains(days) {
            return "A challenge lasts 1 to 365 days; \(days) is not."
        }
        if !Self.yearsRange.contains(firstDay.year) {
            return "A challenge starts in the years 1 to 9998; \(firstDay.year) is not one."
        }
        if !Self.coinsRange.contains(reward) || !Self.coinsRange.contains(penalty) {
            return "A reward or penalty is 0 to 10000 coins."
        }
        switch rule {
        case .dailyBlocks(let max, _) where !Self.maxBlocksRange.contains(max):
            return "At most 0 to 96 blocks a day; \(max) is not."
        case .quietHours(_, let from, let until) where from == until:
            return "Quiet hours need an end other than their start."
        default:
            return nil
        }
    }

    /// A short description: "at most 2 blocks of vice apps a day", "no youtube 22:00-07:00".
    public var summary: String {
        func name(_ target: ChallengeTarget) -> String {
            switch target {
            case .app(let id): id
            case .allVice: "vice apps"
            }
        }
        switch rule {
        case .dailyBlocks(let max, let target):
            return "at most \(max) block\(max == 1 ? "" : "s") of \(name(target)) a day"
        case .quietHours(let target, let from, let until):
            return "no \(name(target)) \(from.text)-\(until.text)"
        case .streak:
            return "every day within the limit"
        }
    }

    /// How hard it is, for badges: long spans and tight rules are hard.
    public var isHard: Bool {
        switch rule {
        case .dailyBlocks(let max, .allVice): days >= 7 && max <= 2
        case .dailyBlocks(let max, .app): days >= 14 && max == 0
        case .quietHours(_, let from, let until):
            days >= 7 && (until.minutes - from.minutes + 1440) % 1440 >= 8 * 60
        case .streak: days >= 14
        }
    }
}
