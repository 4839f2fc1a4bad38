import Foundation

/// What a challenge does when its app comes to the front while its rule forbids it: chosen per
/// challenge by the person who takes part (`challenge create|join --when-opened`), never by the
/// group.
public enum OpenedAction: String, Hashable, Sendable, Codable, CaseIterable {
    /// Nothing (challenges made before the choice existed: they never asked).
    case off
    /// A desktop notice at once, naming the challenge, what is at stake and the way out.
    case notice
    /// The notice, and the window moved out of sight.
    case minimize
    /// The notice, and the application asked to close the window (never a process killed).
    case close

    /// What was done to the window of `appName`, for the notice, when it was done.
    public func done(appName: String) -> String? {
        switch self {
        case .off, .notice: nil
        case .minimize: "The window was moved out of sight."
        case .close: "\(appName) was asked to close the window."
        }
    }

    /// Which of two actions is the stronger: the one done when two challenges forbid an app.
    public var strength: Int {
        switch self {
        case .off: 0
        case .notice: 1
        case .minimize: 2
        case .close: 3
        }
    }
}

/// Decides whether a running challenge forbids an app that has just come to the front: a pure
/// function of the challenges, today's blocks, the goal and the present instant.
///
/// A rule forbids an app when the next block of it would break the rule: "at most N blocks a
/// day" of it once N are used today; quiet hours of it while they last; a streak (vice apps)
/// once today's vice blocks reach the goal. A challenge that has not begun, has ended, or makes
/// no sense (`Challenge.problem`) forbids nothing.
public struct ChallengeGuard: Sendable {
    public let calendar: DayCalendar

    public init(calendar: DayCalendar) {
        self.calendar = calendar
    }

    /// A running challenge, as the guard sees it.
    public struct Watched: Hashable, Sendable {
        public var challenge: Challenge
        public var action: OpenedAction

        public init(challenge: Challenge, action: OpenedAction) {
            self.challenge = challenge
            self.action = action
        }
    }

    /// One challenge that forbids the app now, and why, in words.
    public struct Forbidden: Hashable, Sendable {
        public var challenge: Challenge
        public var action: OpenedAction
        /// "2 of 2 blocks used today", "quiet hours until 07:00".
        public var reason: String

        public init(challenge: Challenge, action: OpenedAction, reason: String) {
            self.challenge = challenge
            self.action = action
            self.reason = reason
        }
    }

    /// The challenges among `watched` (those with an action other than `off`) that forbid `app`
    /// at `now`, strongest action first. `today` holds the blocks of the day containing `now`.
    public func forbidding(
        _ app: TrackedApp, watched: [Watched], today: [UsageEvent], goal: Int, now: Date
    ) -> [Forbidden] {
        let day = calendar.day(containing: now)
        let found = watched.compactMap { item -> Forbidden? in
            let challenge = item.challenge
            guard item.action != .off, challenge.problem == nil, isRunning(challenge, at: now, day: day),
                let reason = reason(challenge.rule, app: app, today: today, goal: goal, now: now)
            else { return nil }
            return Forbidden(challenge: challenge, action: item.action, reason: reason)
        }
        return found.sorted {
            ($0.action.strength, $1.challenge.id) > ($1.action.strength, $0.challenge.id)
        }
    }

    private func isRunning(_ challenge: Challenge, at now: Date, day: LocalDate) -> Bool {
        guard day >= challenge.firstDay, day <= challenge.lastDay else { return false }
        return challenge.startsAt.map { now >= $0 } ?? true
    }

    private func reason(_ rule: ChallengeRule, app: TrackedApp, today: [UsageEvent], goal: Int, now: Date)
        -> String?
    {
        switch rule {
        case .dailyBlocks(let max, let target):
            guard target.matches(app) else { return nil }
            let used = today.filter(target.matches).count
            guard used >= max else { return nil }
            return "\(used) of \(max) block\(max == 1 ? "" : "s") used today"
        case .quietHours(let target, let from, let until):
            guard target.matches(app) else { return nil }
            return ChallengeRule.isQuiet(now, from: from, until: until, calendar: calendar)
                ? "quiet hours until \(until.text)" : nil
        case .streak:
            guard app.category == .vice else { return nil }
            let used = today.filter { $0.category == .vice }.count
            guard used >= max(0, goal) else { return nil }
            return "\(used) of \(goal) vice blocks used today"
        }
    }
}

extension ChallengeTarget {
    /// Whether the app is this target's.
    public func matches(_ app: TrackedApp) -> Bool {
        switch self {
        case .app(let id): app.id == id
        case .allVice: app.category == .vice
        }
    }
}

extension ChallengeGuard.Forbidden {
    /// The notice for this challenge's act at `instant` (on `day`): the challenge, what is at
    /// stake and the way out; `done` says what happened to the window, if anything was asked.
    public func notice(app: TrackedApp, day: LocalDate, at instant: Date, done: String?) -> Notice {
        let stake =
            challenge.penalty > 0 ? "\(challenge.penalty) coins are at stake" : "nothing but the challenge is at stake"
        let body =
            "\(challenge.summary): \(reason); \(stake). Go back, or give up with "
            + "`screenmates challenge forfeit \(challenge.id)`." + (done.map { " \($0)" } ?? "")
        return Notice(
            kind: .challengeOpened(id: challenge.id, app: app.id, action: action.rawValue), day: day,
            title: "\(app.name) is off limits (challenge \(challenge.id))", body: body,
            serial: String(Int64((instant.timeIntervalSince1970 * 1000).rounded(.down))))
    }
}
