import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

// Group challenges and coins on PostgreSQL: each operation one call of a function of the schema
// (`Schema/Functions/`), which checks and writes in one transaction. The weekly settlement is in
// PostgresGroupStore+Settlement.swift.
extension PostgresGroupStore {
    // MARK: - Group challenges

    public func createGroupChallenge(_ challenge: Challenge, code: GroupCode, creatorID: UserID, now: Date)
        async throws(GroupStoreError)
    {
        let c = try ChallengeArguments(challenge, now: now)
        let (id, rule, first, days, reward, penalty, startsAt, at) = (
            c.id, c.rule, c.first, c.days, c.reward, c.penalty, c.startsAt, c.at
        )
        let me = try caller(creatorID)
        let rows = try await perform(OperationContext(code: code, userID: creatorID)) { client in
            try await client.writeRows(
                """
                SELECT screenmates.create_group_challenge(\(me.id), \(me.secret), \(code.value), \(id), \(rule),
                    \(first), \(days), \(reward), \(penalty), \(startsAt), \(at))
                """
            )
        }
        switch try outcome(rows, "creating a challenge") {
        case .created: return
        case .unknown: throw .unknownCode(code)
        case .notMember: throw .notAMember(code: code)
        case .exists: throw .challengeExists(challenge.id)
        default: throw unexpected("creating a challenge")
        }
    }

    public func joinGroupChallenge(id: String, code: GroupCode, userID: UserID, today: LocalDate, now: Date)
        async throws(GroupStoreError) -> GroupChallenge
    {
        try GroupStoreRules.check(challengeID: id)
        let at = try StoredInstant.milliseconds(now)
        let day = Int64(GroupStoreRules.clampedDayNumber(today))
        let me = try caller(userID)
        let rows = try await perform(OperationContext(code: code, userID: userID)) { client in
            try await client.writeRows(
                """
                SELECT outcome, creator_id, rule, first_day, days, reward, penalty, starts_at, created_at
                FROM screenmates.join_group_challenge(\(me.id), \(me.secret), \(code.value), \(id), \(day), \(at))
                """
            )
        }
        let answer = try decode("joining a challenge") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to joining a challenge") }
            return try row.decode(
                (String, String?, String?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self)
        }
        switch GamesOutcome(rawValue: answer.0) {
        case .joined: break
        case .unknown: throw .unknownCode(code)
        case .notMember: throw .notAMember(code: code)
        case .noChallenge: throw .unknownChallenge(id)
        case .closed: throw .challengeClosed(id)
        default: throw unexpected("joining a challenge")
        }
        let (_, creator, rule, first, days, reward, penalty, startsAt, createdAt) = answer
        guard let creator, let rule, let first, let days, let reward, let penalty, let createdAt else {
            throw .unusable(location: address.description, detail: "joining a challenge answered without it")
        }
        // A challenge that makes no sense is never joined: it could not be judged.
        do {
            return try StoredGroupChallenge(
                id: id, creatorID: creator, rule: rule, firstDay: first, days: days, reward: reward, penalty: penalty,
                startsAt: startsAt, createdAt: createdAt
            ).checked()
        } catch {
            throw .invalidValue("This challenge cannot be joined: \(error.description).")
        }
    }

    @discardableResult
    public func reportParticipant(_ report: ParticipantReport, code: GroupCode) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(report)
        let decidedAt = try StoredInstant.milliseconds(ifAny: report.decidedAt)
        let (id, state, days) = (report.challengeID, report.state.rawValue, Int64(report.daysKept))
        let me = try caller(report.userID)
        let rows = try await perform(OperationContext(code: code, userID: report.userID)) { client in
            try await client.writeRows(
                """
                SELECT screenmates.report_participant(\(me.id), \(me.secret), \(code.value), \(id), \(state), \(days),
                    \(decidedAt))
                """
            )
        }
        switch try outcome(rows, "reporting a participant") {
        case .stored: return true
        case .unchanged: return false
        case .unknown: throw .unknownCode(code)
        case .noChallenge: throw .unknownChallenge(id)
        case .notParticipant: throw .notAMember(code: code)
        default: throw unexpected("reporting a participant")
        }
    }

    public func groupChallenges(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError)
        -> [GroupChallengeBoard]
    {
        let me = try reader(code)
        let challengeRows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, id, creator_id, rule, first_day, days, reward, penalty, starts_at, created_at
                FROM screenmates.group_challenges_after(\(me.id), \(me.secret), \(code.value), \(changedAfter))
                """
            )
        }
        if try firstIsUnknown(challengeRows) { throw .unknownCode(code) }
        let participantRows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, challenge_id, user_id, display_name, state, days_kept, joined_at, decided_at
                FROM screenmates.challenge_participants_after(\(me.id), \(me.secret), \(code.value), \(changedAfter))
                """
            )
        }
        if try firstIsUnknown(participantRows) { throw .unknownCode(code) }
        // A challenge that makes no sense (or from a newer version) is left out and named, and
        // its participants with it; so is any bad participant row.
        var filter = GroupRowFilter()
        let boards = try decode("the group's challenges") {
            let challenges = try challengeRows.compactMap { row in
                let (_, id, creator, rule, first, days, reward, penalty, startsAt, createdAt) = try row.decode(
                    (Bool, String, String, String, Int64, Int64, Int64, Int64, Int64?, Int64).self)
                return filter.keep(
                    StoredGroupChallenge(
                        id: id, creatorID: creator, rule: rule, firstDay: first, days: days, reward: reward,
                        penalty: penalty, startsAt: startsAt, createdAt: createdAt))
            }
            let kept = Set(challenges.map(\.id))
            var participants: [String: [ParticipantStanding]] = [:]
            for row in participantRows {
                let (_, challengeID, userID, name, state, days, joinedAt, decidedAt) = try row.decode(
                    (Bool, String, String, String, String, Int64, Int64, Int64?).self)
                guard kept.contains(challengeID) else { continue }
                let stored = StoredParticipant(
                    challengeID: challengeID, userID: userID, displayName: name, state: state, daysKept: days,
                    joinedAt: joinedAt, decidedAt: decidedAt)
                if let standing = filter.keep(stored) { participants[challengeID, default: []].append(standing) }
            }
            return challenges.map { GroupChallengeBoard(challenge: $0, participants: participants[$0.id] ?? []) }
        }
        filter.report()
        return boards
    }

    // MARK: - Coins

    @discardableResult
    public func reportStanding(_ report: StandingReport) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(report)
        let at = try StoredInstant.milliseconds(report.updatedAt)
        let (name, coins, badges, isPublic, version) = (
            report.displayName.value, Int64(report.coins), Int64(report.badges), report.isPublic, report.version
        )
        let me = try caller(report.userID)
        let rows = try await perform(OperationContext(name: report.displayName, userID: report.userID)) { client in
            try await client.writeRows(
                """
                SELECT screenmates.report_standing(\(me.id), \(me.secret), \(name), \(coins), \(badges), \(isPublic),
                    \(version), \(at))
                """
            )
        }
        return try known(rows, "reporting coins")
    }

    public func memberCoins(code: GroupCode, changedAfter: Int64?) async throws(GroupStoreError) -> [MemberCoins] {
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT known, user_id, coins, badges, updated_at
                FROM screenmates.member_coins_after(\(me.id), \(me.secret), \(code.value), \(changedAfter))
                """
            )
        }
        if try firstIsUnknown(rows) { throw .unknownCode(code) }
        var filter = GroupRowFilter()
        let coins = try decode("the members' coins") {
            try rows.compactMap { row in
                let (_, user, coins, badges, updatedAt) = try row.decode((Bool, String, Int64, Int64, Int64).self)
                return filter.keep(StoredCoins(userID: user, coins: coins, badges: badges, updatedAt: updatedAt))
            }
        }
        filter.report()
        return coins
    }

    public func publicRanking(userID: UserID, limit: Int) async throws(GroupStoreError) -> PublicRanking {
        let cap = Int64(min(max(limit, 1), GroupStoreRules.publicRankingLimit))
        let me = try caller(userID)
        let rows = try await perform(OperationContext(userID: userID)) { client in
            try await client.rows(
                """
                SELECT display_name, coins, badges, is_me, total, my_rank
                FROM screenmates.public_ranking(\(me.id), \(me.secret), \(cap))
                """
            )
        }
        var filter = GroupRowFilter()
        let ranking = try decode("the public ranking") {
            var total = 0
            var myRank: Int?
            let standings = try rows.compactMap { row in
                let (name, coins, badges, isMe, count, rank) = try row.decode(
                    (String, Int64, Int64, Bool, Int64, Int64?).self)
                total = Int(clamping: max(0, count))
                myRank = rank.map { Int(clamping: max(0, $0)) }
                return filter.keep(StoredPublicStanding(displayName: name, coins: coins, badges: badges, isMe: isMe))
            }
            return PublicRanking(standings: standings, total: total, myRank: myRank)
        }
        filter.report()
        return ranking
    }

    // MARK: -

    /// A challenge as the functions take it: checked as every store checks it, in the numbers
    /// they are stored as.
    struct ChallengeArguments {
        let id, rule: String
        let first, days, reward, penalty: Int64
        let startsAt: Int64?
        /// When it is shared.
        let at: Int64

        init(_ challenge: Challenge, now: Date) throws(GroupStoreError) {
            try GroupStoreRules.check(challenge)
            at = try StoredInstant.milliseconds(now)
            startsAt = try StoredInstant.milliseconds(ifAny: challenge.startsAt)
            rule = GroupStoreRules.ruleText(challenge.rule)
            (id, first, days, reward, penalty) = (
                challenge.id, Int64(challenge.firstDay.dayNumber), Int64(challenge.days), Int64(challenge.reward),
                Int64(challenge.penalty)
            )
        }
    }

    /// The text a function of the games answered with, as its file in `Schema/Functions/` spells it.
    enum GamesOutcome: String {
        case created, joined, stored, unchanged, set, exists, closed, unknown
        case notMember = "not-member"
        case noChallenge = "no-challenge"
        case notParticipant = "not-participant"
        case weekFixed = "week-fixed"
    }

    /// A function's answer; nil for one this version does not know (a newer schema's).
    private func outcome(_ rows: [PostgresRow], _ what: String) throws(GroupStoreError) -> GamesOutcome? {
        let answer = try decode(what) {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to \(what)") }
            return try row.decode(String.self)
        }
        return GamesOutcome(rawValue: answer)
    }

    func unexpected(_ what: String) -> GroupStoreError {
        .unusable(location: address.description, detail: "\(what) gave an answer this version does not know")
    }
}
