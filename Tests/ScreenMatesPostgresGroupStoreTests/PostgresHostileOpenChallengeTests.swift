import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// Challenges open to all against a hostile member: on a strict store, the owner publishes one,
/// ana and bo join it, and eve — a member with a login of her own — attacks with raw SQL as psql
/// would: publishing, writing the tables, joining and reporting in ana's name, values and names
/// no client would send. Every attack is refused, ana's and bo's lines stay as they were, and
/// ana's client still reads the board and reports.
@Suite(.serialized, .enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresHostileOpenChallengeTests {
    private typealias Group = HostileGroup

    static let id = "open2345"

    /// The hostile group, and the store's owner with a challenge published today that ana and
    /// bo joined.
    private static func make() async throws -> Group {
        let group = try await Group.make()
        let ownerID = UserID("own23456")
        let owner = PostgresGroupStore(
            address: group.owner, keyring: .single(ownerID, PostgresTestServer.secret(for: ownerID, salt: "owner")))
        let challenge = Challenge(
            id: id, rule: .dailyBlocks(max: 2, target: .allVice), firstDay: group.today, days: 7, reward: 40,
            penalty: 20)
        try await owner.publishOpenChallenge(challenge, publisherID: ownerID, now: group.now)
        for member in [group.ana, group.bo] {
            _ = try await member.store.joinOpenChallenge(
                id: id, userID: member.userID, name: member.profile.displayName, today: group.today, now: group.now)
        }
        return group
    }

    /// ana's and bo's lines, and the challenge, read as the owner straight from the tables.
    private static func lines(_ group: Group) async throws -> [String] {
        try await group.values(
            """
            SELECT 'open_participant ' || (to_jsonb(t) - 'joined_on')::text FROM screenmates.open_participant t
                WHERE t.user_id IN ('\(group.ana.id)', '\(group.bo.id)')
            UNION ALL SELECT 'open_challenge ' || (to_jsonb(t) - 'published_on')::text FROM screenmates.open_challenge t
            ORDER BY 1
            """, String.self)
    }

    @Test func nothingIsPublishedJoinedOrReportedAgainstTheRules() async throws {
        let group = try await Self.make()
        let (ana, eve, mal) = (group.ana, group.eve, group.mal)
        let before = try await Self.lines(group)
        let (id, ms, today) = (Self.id, group.nowMilliseconds, Int64(group.day(0)))
        let rule = #"{"dailyBlocks":{"max":0,"target":{"allVice":{}}}}"#

        // Only the owner publishes, through the function or not at all.
        try await Group.expectRefused(
            [
                """
                SELECT screenmates.publish_open_challenge(\(eve.id), \(eve.secret.hex), 'evetrap1', \(rule), \(today),
                    30, 0, 10000, NULL, \(ms))
                """
            ], as: eve, with: "SMOWN")
        try await Group.expectRefused(
            [
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO screenmates.open_challenge (id, published_by, rule, first_day, days, reward, penalty,
                            published_at) VALUES ('evetrap1', 'eve23456', '{}', 0, 1, 0, 0, 0)
                        """),
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO screenmates.open_participant (challenge_id, user_id, display_name, name_key, state,
                            days_kept, joined_at) VALUES ('\(id)', 'eve23456', 'eve', 'eve', 'finished', 7, 0)
                        """),
                PostgresQuery(unsafeSQL: "UPDATE screenmates.open_participant SET state = 'failed'"),
                PostgresQuery(unsafeSQL: "SELECT user_id FROM screenmates.open_participant"),
                PostgresQuery(unsafeSQL: "DELETE FROM screenmates.open_challenge"),
                PostgresQuery(unsafeSQL: "SELECT nextval('screenmates.open_change_seq')"),
            ], as: eve, with: "42501")

        // In ana's name (her id with eve's secret): nothing.
        let asAna = "'\(ana.id)', '\(eve.secret.hex)'"
        try await Group.expectRefused(
            [
                PostgresQuery(
                    unsafeSQL:
                        "SELECT * FROM screenmates.report_open_participant(\(asAna), '\(id)', 'forfeited', 0, \(ms))"),
                PostgresQuery(
                    unsafeSQL:
                        "SELECT * FROM screenmates.join_open_challenge(\(asAna), '\(id)', 'ana2', \(today), \(ms))"),
                PostgresQuery(unsafeSQL: "SELECT * FROM screenmates.open_participants(\(asAna))"),
            ], as: eve, with: "SMWHO")

        // eve's own line: only what a client would send.
        _ = try await eve.store.joinOpenChallenge(
            id: id, userID: eve.userID, name: eve.profile.displayName, today: group.today, now: group.now)
        try await Group.expectRefused(
            [
                "SELECT screenmates.report_open_participant(\(eve.id), \(eve.secret.hex), \(id), 'won', 0, NULL)",
                "SELECT screenmates.report_open_participant(\(eve.id), \(eve.secret.hex), \(id), 'in', 366, NULL)",
                "SELECT screenmates.report_open_participant(\(eve.id), \(eve.secret.hex), \(id), 'in', -1, NULL)",
                // More days than a challenge begun today has run, and finished before its end.
                "SELECT screenmates.report_open_participant(\(eve.id), \(eve.secret.hex), \(id), 'in', 5, NULL)",
                "SELECT screenmates.report_open_participant(\(eve.id), \(eve.secret.hex), \(id), 'finished', 1, \(ms))",
                """
                SELECT screenmates.report_open_participant(\(eve.id), \(eve.secret.hex), \(id), 'failed', 0,
                    9223372036854775807)
                """,
                """
                SELECT screenmates.report_open_participant(\(eve.id), \(eve.secret.hex), \(id), 'failed', 0,
                    -3000000000000000)
                """,
            ], as: eve, with: "SMVAL")

        // mal, in no group, joins only under a name every client accepts, on a day that is today.
        let names = ["a b", String(repeating: "a", count: 21), "ana\u{1B}[2J", "", "\u{202E}ana", "ana\n"]
        for name in names {
            try await Group.expectRefused(
                [
                    "SELECT * FROM screenmates.join_open_challenge(\(mal.id), \(mal.secret.hex), \(id), \(name), \(today), \(ms))"
                ],
                as: mal, with: "SMVAL")
        }
        try await Group.expectRefused(
            [
                """
                SELECT * FROM screenmates.join_open_challenge(\(mal.id), \(mal.secret.hex), \(id), 'mal', \(today + 30),
                    \(ms))
                """
            ], as: mal, with: "SMVAL")
        // A name on the board (in any case) is answered as taken, and nothing is written.
        let taken = try await PostgresTestServer.withConnection(to: mal.login) { connection in
            try await connection.query(
                """
                SELECT outcome FROM screenmates.join_open_challenge(\(mal.id), \(mal.secret.hex), \(id), 'ANA', \(today),
                    \(ms))
                """, logger: Group.logger
            ).collect().map { try $0.decode(String.self) }
        }
        #expect(taken == ["name-taken"])

        #expect(try await Self.lines(group) == before)
        // ana's client still reads the board (names and outcomes) and reports her part.
        let board = try #require(try await ana.store.openChallenges(userID: ana.userID).first)
        #expect(board.participants.map(\.name) == ["ana", "bo", "eve"])
        #expect(board.participants.map(\.isMe) == [true, false, false])
        #expect(
            try await ana.store.reportOpenParticipant(
                ParticipantReport(challengeID: id, userID: ana.userID, state: .stillIn, daysKept: 1, decidedAt: nil)))
        try await group.expectVictimStillWorks()
    }

    /// Deleting eve's account takes her line off the board; ana's and bo's stay.
    @Test func aDeletedAccountLeavesTheBoard() async throws {
        let group = try await Self.make()
        _ = try await group.eve.store.joinOpenChallenge(
            id: Self.id, userID: group.eve.userID, name: group.eve.profile.displayName, today: group.today,
            now: group.now)
        let before = try await Self.lines(group)
        try await group.eve.store.deleteAccount(userID: group.eve.userID)
        let board = try #require(try await group.ana.store.openChallenges(userID: group.ana.userID).first)
        #expect(board.participants.map(\.name) == ["ana", "bo"])
        #expect(try await Self.lines(group) == before)
    }
}
