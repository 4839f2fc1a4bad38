import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

// Challenges open to everyone on the server: each operation one call of a function of the schema
// (`Schema/Functions/*open*.sql`), made by the verified caller. Only the role
// that owns the schema may publish; the boards it answers carry names and outcomes, no user id.
extension PostgresGroupStore {
    public func publishOpenChallenge(_ challenge: Challenge, publisherID: UserID, now: Date)
        async throws(GroupStoreError)
    {
        let c = try ChallengeArguments(challenge, now: now)
        let (id, rule, first, days, reward, penalty, startsAt, at) = (
            c.id, c.rule, c.first, c.days, c.reward, c.penalty, c.startsAt, c.at
        )
        let me = try caller(publisherID)
        let rows = try await perform(OperationContext(userID: publisherID)) { client in
            try await client.writeRows(
                """
                SELECT screenmates.publish_open_challenge(\(me.id), \(me.secret), \(id), \(rule), \(first), \(days),
                    \(reward), \(penalty), \(startsAt), \(at))
                """
            )
        }
        switch try decode("publishing a challenge", { try rows.first?.decode(String.self) ?? "" }) {
        case "published": return
        case "exists": throw .challengeExists(challenge.id)
        default: throw unexpected("publishing a challenge")
        }
    }

    public func openChallenges(userID: UserID) async throws(GroupStoreError) -> [OpenChallengeBoard] {
        let me = try caller(userID)
        let challengeRows = try await perform(OperationContext(userID: userID)) { client in
            try await client.rows(
                """
                SELECT id, rule, first_day, days, reward, penalty, starts_at, published_at
                FROM screenmates.open_challenges(\(me.id), \(me.secret))
                """
            )
        }
        let lineRows = try await perform(OperationContext(userID: userID)) { client in
            try await client.rows(
                """
                SELECT challenge_id, display_name, state, days_kept, joined_at, decided_at, is_me
                FROM screenmates.open_participants(\(me.id), \(me.secret))
                """
            )
        }
        // A challenge that cannot be right is left out and named, its lines with it; so is a bad line.
        var filter = GroupRowFilter()
        let boards = try decode("the open challenges") {
            let challenges = try challengeRows.compactMap { row in
                let (id, rule, first, days, reward, penalty, startsAt, publishedAt) = try row.decode(
                    (String, String, Int64, Int64, Int64, Int64, Int64?, Int64).self)
                return filter.keep(
                    StoredOpenChallenge(
                        row: StoredGroupChallenge(
                            id: id, creatorID: "-", rule: rule, firstDay: first, days: days, reward: reward,
                            penalty: penalty, startsAt: startsAt, createdAt: publishedAt)))
            }
            var lines: [String: [OpenStanding]] = [:]
            for row in lineRows {
                let (challengeID, name, state, days, joinedAt, decidedAt, isMe) = try row.decode(
                    (String, String, String, Int64, Int64, Int64?, Bool).self)
                guard challenges.contains(where: { $0.challenge.id == challengeID }) else { continue }
                let stored = StoredOpenParticipant(
                    challengeID: challengeID, displayName: name, state: state, daysKept: days, joinedAt: joinedAt,
                    decidedAt: decidedAt, isMe: isMe)
                if let line = filter.keep(stored) { lines[challengeID, default: []].append(line) }
            }
            return challenges.map { shared in
                OpenChallengeBoard(
                    challenge: shared.challenge, publishedAt: shared.publishedAt,
                    participants: lines[shared.challenge.id] ?? [])
            }
        }
        filter.report()
        return boards
    }

    public func joinOpenChallenge(id: String, userID: UserID, name: DisplayName, today: LocalDate, now: Date)
        async throws(GroupStoreError) -> Challenge
    {
        try GroupStoreRules.check(challengeID: id)
        let at = try StoredInstant.milliseconds(now)
        let day = Int64(GroupStoreRules.clampedDayNumber(today))
        let me = try caller(userID)
        let rows = try await perform(OperationContext(name: name, userID: userID)) { client in
            try await client.writeRows(
                """
                SELECT outcome, rule, first_day, days, reward, penalty, starts_at, published_at
                FROM screenmates.join_open_challenge(\(me.id), \(me.secret), \(id), \(name.value), \(day), \(at))
                """
            )
        }
        let answer = try decode("joining a challenge") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to joining a challenge") }
            return try row.decode((String, String?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self)
        }
        switch answer.0 {
        case "joined": break
        case "no-challenge": throw .unknownOpenChallenge(id)
        case "closed": throw .challengeClosed(id)
        case "name-taken": throw .nameTakenOnBoard(name, challengeID: id)
        default: throw unexpected("joining a challenge")
        }
        let (_, rule, first, days, reward, penalty, startsAt, publishedAt) = answer
        guard let rule, let first, let days, let reward, let penalty, let publishedAt else {
            throw .unusable(location: address.description, detail: "joining a challenge answered without it")
        }
        // A challenge that makes no sense is never joined: it could not be judged.
        do {
            return try StoredOpenChallenge(
                row: StoredGroupChallenge(
                    id: id, creatorID: "-", rule: rule, firstDay: first, days: days, reward: reward, penalty: penalty,
                    startsAt: startsAt, createdAt: publishedAt)
            ).checked().challenge
        } catch {
            throw .invalidValue("This challenge cannot be joined: \(error.description).")
        }
    }

    @discardableResult
    public func reportOpenParticipant(_ report: ParticipantReport) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(report)
        let decidedAt = try StoredInstant.milliseconds(ifAny: report.decidedAt)
        let (id, state, days) = (report.challengeID, report.state.rawValue, Int64(report.daysKept))
        let me = try caller(report.userID)
        let rows = try await perform(OperationContext(userID: report.userID)) { client in
            try await client.writeRows(
                """
                SELECT screenmates.report_open_participant(\(me.id), \(me.secret), \(id), \(state), \(days),
                    \(decidedAt))
                """
            )
        }
        switch try decode("reporting a participant", { try rows.first?.decode(String.self) ?? "" }) {
        case "stored": return true
        case "unchanged": return false
        case "no-challenge": throw .unknownOpenChallenge(id)
        case "not-participant": throw .notAParticipant(id)
        default: throw unexpected("reporting a participant")
        }
    }

    public func openChallengesMark(userID: UserID) async throws(GroupStoreError) -> Int64 {
        let me = try caller(userID)
        let rows = try await perform(OperationContext(userID: userID)) { client in
            try await client.rows("SELECT screenmates.open_changes_mark(\(me.id), \(me.secret))")
        }
        return try decode("the open challenges' change mark") {
            guard let row = rows.first else { throw UnreadableValue(what: "no change mark") }
            return try row.decode(Int64.self)
        }
    }
}
