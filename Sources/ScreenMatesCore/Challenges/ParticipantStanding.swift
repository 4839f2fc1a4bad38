import Foundation

/// Where one participant of a group challenge stands, as the group sees it.
///
/// A decided state (finished, failed, forfeited) never changes again: the participant's own
/// home decides it once, from their own blocks, and the group only ever learns it.
public enum ParticipantState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Still in: nothing broken yet.
    case stillIn = "in"
    /// Kept the rule to the end of the span.
    case finished
    /// Broke the rule.
    case failed
    /// Gave up.
    case forfeited

    public var isDecided: Bool { self != .stillIn }

    /// In words, for a leaderboard row.
    public var title: String {
        switch self {
        case .stillIn: "still in"
        case .finished: "finished"
        case .failed: "failed"
        case .forfeited: "gave up"
        }
    }

    /// The order of a participants' leaderboard: who finished, who is still in, who failed, who
    /// gave up.
    var order: Int {
        switch self {
        case .finished: 0
        case .stillIn: 1
        case .failed: 2
        case .forfeited: 3
        }
    }
}

/// One participant's line on a group challenge's leaderboard: only the state and counts, never
/// an app name or a block.
public struct ParticipantStanding: Hashable, Sendable, Codable {
    public var userID: UserID
    public var name: String
    public var state: ParticipantState
    /// Whole days of the span kept so far (all of them once finished).
    public var daysKept: Int
    public var joinedAt: Date
    /// When the state was decided (nil while still in).
    public var decidedAt: Date?

    public init(
        userID: UserID, name: String, state: ParticipantState, daysKept: Int, joinedAt: Date, decidedAt: Date? = nil
    ) {
        self.userID = userID
        self.name = name
        self.state = state
        self.daysKept = daysKept
        self.joinedAt = joinedAt
        self.decidedAt = decidedAt
    }

    /// What a report from the participant's home makes of this standing, or nil when it changes
    /// nothing: a decided state stays as it was decided first; while still in, the days kept
    /// only grow (a late, stale report cannot take one back).
    public func taking(state newState: ParticipantState, daysKept newDays: Int, decidedAt newDecided: Date?)
        -> ParticipantStanding?
    {
        if state.isDecided { return nil }
        var next = self
        if newState.isDecided {
            next.state = newState
            next.daysKept = max(0, newDays)
            next.decidedAt = newDecided
        } else {
            guard newDays > daysKept else { return nil }
            next.daysKept = newDays
        }
        return next
    }
}

/// A participants' leaderboard: finished first, then still in, then failed, then gave up; more
/// days kept first; among those who failed, who lasted longer first; then by name.
public enum ChallengeStandings {
    /// Each standing with its rank; participants equal on state and days kept share a rank.
    public static func rank(_ standings: [ParticipantStanding]) -> [(rank: Int, standing: ParticipantStanding)] {
        let sorted = standings.sorted(by: ranksBefore)
        var result: [(rank: Int, standing: ParticipantStanding)] = []
        for (index, standing) in sorted.enumerated() {
            if let last = result.last, last.standing.state == standing.state,
                last.standing.daysKept == standing.daysKept
            {
                result.append((last.rank, standing))
            } else {
                result.append((index + 1, standing))
            }
        }
        return result
    }

    public static func ranksBefore(_ a: ParticipantStanding, _ b: ParticipantStanding) -> Bool {
        if a.state.order != b.state.order { return a.state.order < b.state.order }
        if a.daysKept != b.daysKept { return a.daysKept > b.daysKept }
        let decidedA = a.decidedAt ?? .distantFuture
        let decidedB = b.decidedAt ?? .distantFuture
        if decidedA != decidedB { return decidedA > decidedB }
        let keyA = a.name.lowercased()
        let keyB = b.name.lowercased()
        if keyA != keyB { return keyA < keyB }
        if a.name != b.name { return a.name < b.name }
        return a.userID < b.userID
    }
}

/// How a participant's own challenge stands in the group's words: the state, and the whole days
/// of the span kept so far.
public enum ParticipantProgress {
    /// - Parameters:
    ///   - outcome: how it ended here (nil while undecided).
    ///   - decidedDay: the day it was decided (broken or given up on).
    ///   - today: the participant's day now.
    public static func report(
        _ challenge: Challenge, outcome: ParticipantState?, decidedDay: LocalDate?, today: LocalDate
    ) -> (state: ParticipantState, daysKept: Int) {
        let span = 0...max(0, challenge.days)
        func clamped(_ days: Int) -> Int { min(max(days, span.lowerBound), span.upperBound) }
        switch outcome {
        case .finished?:
            return (.finished, challenge.days)
        case .failed?, .forfeited?:
            return (outcome!, clamped(challenge.firstDay.days(to: decidedDay ?? today)))
        case .stillIn?, nil:
            return (.stillIn, clamped(challenge.firstDay.days(to: today)))
        }
    }
}
