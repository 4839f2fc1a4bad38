import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesPostgresGroupStore
@testable import ScreenMatesSQLiteGroupStore

/// Challenges open to all on a shared file: its owner (the process that made it, here) publishes,
/// and the file refuses a publisher who does not own it.
@Suite struct SQLiteOpenChallengeTests {
    private typealias Contract = OpenChallengeContract

    /// The owner's connection and another one to the same file.
    private static func stores(_ scratch: Scratch) async throws -> (owner: any GroupStore, member: any GroupStore) {
        let path = scratch.newStorePath()
        return (try await SQLiteGroupStore.open(at: path), try await SQLiteGroupStore.open(at: path))
    }

    @Test func aPublishedChallengeIsJoinedAndRankedAcrossGroups() async throws {
        let scratch = Scratch()
        let (owner, member) = try await Self.stores(scratch)
        try await Contract.publishedChallengeIsJoinedAndRanked(owner: owner, member: member)
    }

    @Test func joiningAndReportingFollowTheRules() async throws {
        let scratch = Scratch()
        let (owner, member) = try await Self.stores(scratch)
        try await Contract.joiningAndReportingFollowTheRules(owner: owner, member: member)
    }

    @Test func deletingAnAccountRemovesItsLines() async throws {
        let scratch = Scratch()
        let (owner, member) = try await Self.stores(scratch)
        try await Contract.deletingAnAccountRemovesItsLines(owner: owner, member: member)
    }

    /// Only the Unix owner of the file publishes: anyone else is told who does.
    @Test func onlyTheFilesOwnerPublishes() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        _ = try await SQLiteGroupStore.open(at: path)
        try SQLiteGroupStore.requireOwner(ofFileAt: path, uid: getuid())
        #expect {
            try SQLiteGroupStore.requireOwner(ofFileAt: path, uid: getuid() &+ 1)
        } throws: { error in
            guard case .notStoreOwner(let detail) = error as? GroupStoreError else { return false }
            return detail.contains("Only the owner of the group store \(path)")
        }
    }

    /// Rows another program wrote into the file that no client would write are left out and
    /// named: a line whose name carries an escape, a challenge whose rule cannot be read (its
    /// lines with it); the rest of the board still shows.
    @Test func badRowsAreLeftOutAndNamed() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        try await store.publishOpenChallenge(Contract.challenge("good2345"), publisherID: Contract.ana, now: .now)
        _ = try await store.joinOpenChallenge(
            id: "good2345", userID: Contract.bo, name: GroupStoreContract.name("bo"), today: GroupStoreContract.today,
            now: GroupStoreContract.start)
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    INSERT INTO open_participant (challenge_id, user_id, display_name, name_key, state, days_kept,
                        joined_at) VALUES ('good2345', 'eve23456', 'eve\u{1B}[2J', 'eve', 'in', 0, 0);
                    INSERT INTO open_challenge (id, published_by, rule, first_day, days, reward, penalty, published_at)
                        VALUES ('bad23456', 'eve23456', '{"dailyBlocks":{"max":-1}}', 20500, 3, 0, 0, 0);
                    INSERT INTO open_participant (challenge_id, user_id, display_name, name_key, state, days_kept,
                        joined_at) VALUES ('bad23456', 'bo234567', 'bo', 'bo', 'in', 0, 0);
                    """)
        }
        let (boards, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.openChallenges(userID: Contract.bo)
        }
        #expect(boards.map(\.id) == ["good2345"])
        #expect(boards.first?.participants.map(\.name) == ["bo"])
        #expect(leftOut.map(\.kind) == [.challenge, .participant], "\(leftOut)")
    }

    /// A file at level 3 (a version from before) is brought to the latest level and keeps its groups.
    @Test func aFileFromBeforeGainsTheOpenChallenges() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await GroupStoreContract.newGroup(in: store)
        await store.close()
        // The file as a version at level 3 left it.
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    DROP TABLE rules_change; DROP TABLE open_participant; DROP TABLE open_challenge;
                    DROP TABLE open_change; DROP TABLE machine_day_total; DROP TABLE machine;
                    DELETE FROM schema_level WHERE version >= 4;
                    """)
        }
        let reopened = try await SQLiteGroupStore.open(at: path)
        #expect(try await reopened.members(code: group.code).count == 1)
        try await reopened.publishOpenChallenge(Contract.challenge("again234"), publisherID: Contract.ana, now: .now)
        #expect(try await reopened.openChallenges(userID: Contract.bo).map(\.id) == ["again234"])
    }
}

/// Challenges open to all on a server: the role that owns the schema publishes, any member's
/// login joins and reports its own line only.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresOpenChallengeTests {
    private typealias Contract = OpenChallengeContract

    /// The owner's store (the superuser's login) and a member's (a login that owns nothing).
    private static func stores() async throws -> (owner: any GroupStore, member: any GroupStore) {
        let owner = try await PostgresTestServer.newPreparedDatabase()
        try await PostgresTestServer.relaxPolicy(of: owner)
        let member = try await PostgresTestServer.newMemberRole(in: owner)
        return (
            PostgresGroupStore(address: owner, keyring: PostgresTestServer.keyring),
            PostgresGroupStore(
                address: member, keyring: PostgresTestServer.keyring(salt: "member", reader: Contract.bo))
        )
    }

    @Test func aPublishedChallengeIsJoinedAndRankedAcrossGroups() async throws {
        let (owner, member) = try await Self.stores()
        try await Contract.publishedChallengeIsJoinedAndRanked(owner: owner, member: member)
    }

    @Test func joiningAndReportingFollowTheRules() async throws {
        let (owner, member) = try await Self.stores()
        try await Contract.joiningAndReportingFollowTheRules(owner: owner, member: member)
    }

    @Test func deletingAnAccountRemovesItsLines() async throws {
        let (owner, member) = try await Self.stores()
        try await Contract.deletingAnAccountRemovesItsLines(owner: owner, member: member)
    }

    /// A member's login cannot publish: the server says so, whatever the client would let through.
    @Test func aMemberCannotPublish() async throws {
        let (_, member) = try await Self.stores()
        await #expect {
            try await member.publishOpenChallenge(Contract.challenge("mine2345"), publisherID: Contract.bo, now: .now)
        } throws: { error in
            guard case .notStoreOwner = error as? GroupStoreError else { return false }
            return true
        }
        #expect(try await member.openChallenges(userID: Contract.bo).isEmpty)
    }
}
