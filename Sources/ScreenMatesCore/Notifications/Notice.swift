import Foundation

/// One notification: what it is about, the day it belongs to and its text.
///
/// `key` names it uniquely ("2026-11-21 limit 90"): a notice with a key already recorded is
/// never delivered again, whichever process or restart decides it next.
public struct Notice: Hashable, Sendable, Codable {
    public enum Kind: Hashable, Sendable, Codable {
        /// Today's progress reached a limit state (warning = 75 %, critical = 90 %, over).
        case threshold(LimitState)
        /// The day changed: yesterday's result and the streak.
        case dailyReset
        /// A group-mate went over the limit today.
        case mateOver(userID: UserID)
        /// The 22:00 summary of the group.
        case eveningSummary
        /// Asked for by the user.
        case test
        /// A challenge was decided: kept, broken or given up.
        case challenge(id: String, outcome: String)
        /// A group-mate broke a group challenge the user takes part in.
        case mateChallenge(id: String, userID: UserID)
        /// A badge was earned.
        case badge(String)
        /// A week of the group was settled for the user (the week's first day).
        case weekSettled(String)
        /// A member changed the group's settlement rates for the weeks from the notice's day
        /// (the new rates: "10-20-worst-case").
        case rulesChange(String)
        /// A challenge's app came to the front while its rule forbids it, and the challenge
        /// acted as asked (`OpenedAction`'s raw value: notice, minimize, close).
        case challengeOpened(id: String, app: String, action: String)

        /// A short stable name, used in keys, the log and `status --json`.
        public var name: String {
            switch self {
            case .threshold(let state):
                switch state {
                case .under: "limit-under"
                case .warning: "limit-75"
                case .critical: "limit-90"
                case .over: "limit-over"
                }
            case .dailyReset: "daily-reset"
            case .mateOver(let userID): "mate-over-\(userID)"
            case .eveningSummary: "evening-summary"
            case .test: "test"
            case .challenge(let id, let outcome): "challenge-\(id)-\(outcome)"
            case .mateChallenge(let id, let userID): "challenge-\(id)-mate-\(userID)"
            case .badge(let kind): "badge-\(kind)"
            case .weekSettled(let week): "week-\(week)"
            case .rulesChange(let rates): "rules-\(rates)"
            case .challengeOpened(let id, _, _): "challenge-\(id)-opened"
            }
        }

        /// How the notice looks: calm, a warning or an alarm.
        public var severity: Severity {
            switch self {
            case .threshold(.over), .mateOver, .challenge(_, "broken"): .alarm
            case .threshold(.warning), .threshold(.critical), .mateChallenge, .challengeOpened: .warning
            default: .info
            }
        }
    }

    public enum Severity: String, Hashable, Sendable, Codable {
        case info
        case warning
        case alarm
    }

    public var kind: Kind
    public var day: LocalDate

    /// A notice about the group-mates rather than the user's own day: it leaves
    /// `NotificationScheduler.ownReserve` of the daily budget to the user's own.
    public var isAboutOthers: Bool {
        switch kind {
        case .mateOver, .eveningSummary, .mateChallenge: true
        default: false
        }
    }
    public var title: String
    public var body: String
    /// Distinguishes notices of one kind on one day (test notices, which may repeat).
    public var serial: String

    public init(kind: Kind, day: LocalDate, title: String, body: String, serial: String = "") {
        self.kind = kind
        self.day = day
        self.title = title
        self.body = body
        self.serial = serial
    }

    /// Whether the notice with `key` is a challenge acting on an app opened against its rule:
    /// asked for by the user, and so outside the daily budget of notices.
    public static func isOutsideBudget(key: String) -> Bool {
        let parts = key.split(separator: " ")
        return parts.count >= 2 && parts[1].hasPrefix("challenge-") && parts[1].hasSuffix("-opened")
    }

    public var key: String {
        serial.isEmpty ? "\(day) \(kind.name)" : "\(day) \(kind.name) \(serial)"
    }
}

/// A notice as recorded when it was delivered (or counted as sent without being shown).
public struct NoticeRecord: Hashable, Sendable, Codable {
    public var notice: Notice
    public var at: Date
    /// False for a notice counted as sent but not shown: a lower threshold passed in the same
    /// jump, one over the daily budget, or one decided while notifications were off.
    public var shown: Bool

    public init(notice: Notice, at: Date, shown: Bool) {
        self.notice = notice
        self.at = at
        self.shown = shown
    }
}
