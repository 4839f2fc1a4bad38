import Foundation
import ScreenMatesCore

/// A challenge open to everyone who uses a group store, whatever their group: its owner publishes
/// it (`GroupStore.publishOpenChallenge`), any user of the store may join it until its first day
/// ends, and each participant's home decides their part from their own blocks, as for a group's.
///
/// Its board crosses groups, so it carries names and outcomes only: no participant's user id
/// leaves the store through it (the asker's own line is marked `isMe`).
public struct OpenChallengeBoard: Hashable, Sendable, Codable {
    /// The rule, span and coins; `challenge.startsAt` is when one published to start "now" began.
    public var challenge: Challenge
    public var publishedAt: Date
    /// In the order they joined; `ranked` ranks them.
    public var participants: [OpenStanding]

    public init(challenge: Challenge, publishedAt: Date, participants: [OpenStanding]) {
        self.challenge = challenge
        self.publishedAt = publishedAt
        self.participants = participants
    }

    public var id: String { challenge.id }

    /// The participants with their ranks, best first: the ranking of a group challenge's board
    /// (`ChallengeStandings`), names being unique on a board.
    public var ranked: [(rank: Int, standing: OpenStanding)] {
        let lines = participants.enumerated().map { index, line in
            ParticipantStanding(
                userID: Self.lineID(index), name: line.name, state: line.state, daysKept: line.daysKept,
                joinedAt: line.joinedAt, decidedAt: line.decidedAt)
        }
        return ChallengeStandings.rank(lines).map { entry in
            (entry.rank, participants[Int(entry.standing.userID.value.dropFirst()) ?? 0])
        }
    }

    /// The stand-in id of the board's `index`th line: ranking needs one, and a line has none.
    private static func lineID(_ index: Int) -> UserID {
        (try? UserID(validating: "p\(index)")) ?? UserID.placeholder
    }
}

/// One line of an open challenge's board: a name as its participant gave it, the state and counts.
public struct OpenStanding: Hashable, Sendable, Codable {
    public var name: String
    public var state: ParticipantState
    public var daysKept: Int
    public var joinedAt: Date
    public var decidedAt: Date?
    /// Whether this is the asker's own line.
    public var isMe: Bool

    public init(
        name: String, state: ParticipantState, daysKept: Int, joinedAt: Date, decidedAt: Date? = nil, isMe: Bool
    ) {
        self.name = name
        self.state = state
        self.daysKept = daysKept
        self.joinedAt = joinedAt
        self.decidedAt = decidedAt
        self.isMe = isMe
    }
}

extension UserID {
    /// An id no line of a board is ever ranked under: only for a line whose own could not be made.
    static let placeholder = try! UserID(validating: "p")
}

/// An open challenge's row as a store holds it: checked as a group's challenge is
/// (`StoredGroupChallenge`: a rule this version reads and that makes sense), the publisher's id
/// left behind.
public struct StoredOpenChallenge: StoredGroupRow {
    public var row: StoredGroupChallenge

    public init(row: StoredGroupChallenge) { self.row = row }

    public func checked() throws(LeftOutRow) -> (challenge: Challenge, publishedAt: Date) {
        let shared = try row.checked()
        return (shared.challenge, shared.createdAt)
    }
}

/// A line of an open challenge's board: the name its participant joined under, never a user id.
public struct StoredOpenParticipant: StoredGroupRow {
    public var challengeID: String
    public var displayName: String
    public var state: String
    public var daysKept: Int64
    public var joinedAt: Int64
    public var decidedAt: Int64?
    public var isMe: Bool

    public init(
        challengeID: String, displayName: String, state: String, daysKept: Int64, joinedAt: Int64, decidedAt: Int64?,
        isMe: Bool
    ) {
        self.challengeID = challengeID
        self.displayName = displayName
        self.state = state
        self.daysKept = daysKept
        self.joinedAt = joinedAt
        self.decidedAt = decidedAt
        self.isMe = isMe
    }

    public func checked() throws(LeftOutRow) -> OpenStanding {
        let check = RowCheck(kind: .participant, key: "\(challengeID) \(displayName)")
        return OpenStanding(
            name: try check.name(displayName).value, state: try check.word(state, "state", as: ParticipantState.self),
            daysKept: try check.count(
                daysKept, "days_kept", in: 0...Challenge.daysRange.upperBound, what: "days kept are"),
            joinedAt: try check.instant(joinedAt, "joined_at"),
            decidedAt: try check.optionalInstant(decidedAt, "decided_at"), isMe: isMe)
    }
}

extension GroupStoreRules {
    /// The most challenges open to all a store keeps running at once.
    public static let openChallengesRunningLimit = 100
    /// The most open challenges one user may join in a day.
    public static let openJoinsPerDayLimit = 20

    /// Why only the owner may publish, with where the store is.
    public static func onlyTheOwnerPublishes(_ location: String, owner: String) -> GroupStoreError {
        .notStoreOwner(
            "Only the owner of the group store \(location) (\(owner)) may publish a challenge open to all; "
                + "ask them, or share a challenge with your group (`screenmates challenge create --group`).")
    }
}

extension GroupStore {
    /// The open challenges and their boards, with the change mark read first: a reader that saw
    /// this mark has seen everything up to it.
    public func openChallengesWithMark(userID: UserID) async throws(GroupStoreError)
        -> (boards: [OpenChallengeBoard], mark: Int64)
    {
        let mark = try await openChallengesMark(userID: userID)
        return (try await openChallenges(userID: userID), mark)
    }
}
