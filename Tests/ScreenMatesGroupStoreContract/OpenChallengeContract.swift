import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

/// What every `GroupStore` must do for challenges open to all, run against each implementation:
/// `owner` is the store as its owner opens it (who publishes), `member` as any other user of it
/// (on a server, another login). ana is the owner; bo, cy and dan are in other groups.
package enum OpenChallengeContract {
    typealias Contract = GroupStoreContract

    package static let bo = Contract.bo.userID
    static let cy = UserID("cy234567")
    static let dan = UserID("dan23456")
    package static let ana = Contract.ana.userID

    package static func challenge(_ id: String) -> Challenge {
        Contract.challenge(id, firstDay: Contract.today, days: 3)
    }

    /// Published, listed, joined by users of other groups, reported, ranked as a group's board.
    package static func publishedChallengeIsJoinedAndRanked(owner: any GroupStore, member: any GroupStore) async throws
    {
        let start = Contract.start
        // ana and bo each in a group of their own: the board crosses groups.
        _ = try await owner.createGroup(dailyGoalBlocks: 8, creator: Contract.ana, now: start)
        _ = try await member.createGroup(dailyGoalBlocks: 8, creator: Contract.bo, now: start)
        let before = try await member.openChallengesMark(userID: bo)
        try await owner.publishOpenChallenge(challenge("open2345"), publisherID: ana, now: start)
        #expect(try await member.openChallengesMark(userID: bo) > before)
        await Contract.expectError(.challengeExists("open2345")) {
            try await owner.publishOpenChallenge(challenge("open2345"), publisherID: ana, now: start)
        }
        let listed = try await member.openChallenges(userID: bo)
        #expect(listed.map(\.id) == ["open2345"])
        #expect(listed.first?.challenge == challenge("open2345"))
        #expect(listed.first?.participants == [])

        let joined = try await member.joinOpenChallenge(
            id: "open2345", userID: bo, name: Contract.name("bo"), today: Contract.today, now: Contract.at(10))
        #expect(joined == challenge("open2345"))
        _ = try await member.joinOpenChallenge(
            id: "open2345", userID: cy, name: Contract.name("cy"), today: Contract.today, now: Contract.at(20))
        _ = try await owner.joinOpenChallenge(
            id: "open2345", userID: ana, name: Contract.name("ana"), today: Contract.today, now: Contract.at(30))
        // Again: nothing changes, not even the mark.
        let mark = try await member.openChallengesMark(userID: bo)
        _ = try await member.joinOpenChallenge(
            id: "open2345", userID: bo, name: Contract.name("bo"), today: Contract.today, now: Contract.at(40))
        #expect(try await member.openChallengesMark(userID: bo) == mark)
        // A name on the board, in any case, is taken.
        await Contract.expectError(.nameTakenOnBoard(Contract.name("BO"), challengeID: "open2345")) {
            _ = try await member.joinOpenChallenge(
                id: "open2345", userID: dan, name: Contract.name("BO"), today: Contract.today, now: Contract.at(50))
        }

        func report(_ user: UserID, _ state: ParticipantState, days: Int, at: Int? = nil) -> ParticipantReport {
            ParticipantReport(
                challengeID: "open2345", userID: user, state: state, daysKept: days,
                decidedAt: at.map(Contract.at))
        }
        #expect(try await member.reportOpenParticipant(report(bo, .failed, days: 0, at: 100)))
        #expect(try await member.reportOpenParticipant(report(cy, .stillIn, days: 1)))
        #expect(try await owner.reportOpenParticipant(report(ana, .stillIn, days: 2)))
        // A decided state stays as first reported; days kept only grow.
        #expect(try await member.reportOpenParticipant(report(bo, .finished, days: 3, at: 200)) == false)
        #expect(try await member.reportOpenParticipant(report(cy, .stillIn, days: 0)) == false)
        #expect(try await member.openChallengesMark(userID: bo) > mark)

        let board = try #require(try await member.openChallenges(userID: cy).first)
        #expect(board.participants.map(\.name) == ["bo", "cy", "ana"])
        #expect(board.participants.map(\.isMe) == [false, true, false])
        let ranked = board.ranked.map { "\($0.rank) \($0.standing.name) \($0.standing.state.rawValue)" }
        #expect(ranked == ["1 ana in", "2 cy in", "3 bo failed"])
        #expect(board.participants.first?.decidedAt == Contract.at(100))
        // The owner sees their own line marked, and the same ranking.
        let seen = try #require(try await owner.openChallenges(userID: ana).first)
        #expect(seen.ranked.map(\.standing.name) == ["ana", "cy", "bo"])
        #expect(seen.ranked.map(\.standing.isMe) == [true, false, false])
    }

    /// Who may join and report what: an unknown id, a challenge whose first day is over, a user
    /// who did not join, a value out of range.
    package static func joiningAndReportingFollowTheRules(owner: any GroupStore, member: any GroupStore) async throws {
        try await owner.publishOpenChallenge(challenge("rules234"), publisherID: ana, now: Contract.start)
        await Contract.expectError(.unknownOpenChallenge("nothing2")) {
            _ = try await member.joinOpenChallenge(
                id: "nothing2", userID: bo, name: Contract.name("bo"), today: Contract.today, now: Contract.start)
        }
        await Contract.expectError(.challengeClosed("rules234")) {
            _ = try await member.joinOpenChallenge(
                id: "rules234", userID: bo, name: Contract.name("bo"), today: Contract.today.adding(days: 1),
                now: Contract.start)
        }
        await Contract.expectError(.notAParticipant("rules234")) {
            try await member.reportOpenParticipant(
                ParticipantReport(challengeID: "rules234", userID: bo, state: .failed, daysKept: 0, decidedAt: nil))
        }
        await Contract.expectError(.unknownOpenChallenge("nothing2")) {
            try await member.reportOpenParticipant(
                ParticipantReport(challengeID: "nothing2", userID: bo, state: .failed, daysKept: 0, decidedAt: nil))
        }
        _ = try await member.joinOpenChallenge(
            id: "rules234", userID: bo, name: Contract.name("bo"), today: Contract.today, now: Contract.start)
        await #expect(throws: GroupStoreError.self) {
            try await member.reportOpenParticipant(
                ParticipantReport(challengeID: "rules234", userID: bo, state: .stillIn, daysKept: 366, decidedAt: nil))
        }
        var broken = challenge("broken23")
        broken.days = 0
        await #expect(throws: GroupStoreError.self) {
            try await owner.publishOpenChallenge(broken, publisherID: ana, now: Contract.start)
        }
        #expect(try await member.openChallenges(userID: bo).map(\.id) == ["rules234"])
    }

    /// Deleting an account takes the user's lines off every board.
    package static func deletingAnAccountRemovesItsLines(owner: any GroupStore, member: any GroupStore) async throws {
        try await owner.publishOpenChallenge(challenge("gone2345"), publisherID: ana, now: Contract.start)
        _ = try await member.joinOpenChallenge(
            id: "gone2345", userID: bo, name: Contract.name("bo"), today: Contract.today, now: Contract.start)
        _ = try await member.joinOpenChallenge(
            id: "gone2345", userID: cy, name: Contract.name("cy"), today: Contract.today, now: Contract.start)
        let mark = try await member.openChallengesMark(userID: cy)
        try await member.deleteAccount(userID: bo)
        #expect(try await member.openChallenges(userID: cy).first?.participants.map(\.name) == ["cy"])
        #expect(try await member.openChallengesMark(userID: cy) > mark)
    }
}
