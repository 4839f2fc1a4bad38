import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesPostgresGroupStore

/// What one login may spend, as eve spends it with psql's calls: new ids, wrong codes and claims
/// are counted for the login, and a count and the insert it allows are one step, whatever runs
/// beside it.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresHostileLoginTests {
    /// A secret of 64 hexadecimal digits for eve's puppet `index`.
    static func puppet(_ index: Int) -> (id: String, secret: String) {
        ("puppet\(index)", String(format: "%064x", index + 1))
    }

    /// A call that binds a new id to the caller's login (and reads its groups: none).
    static func bind(_ index: Int) -> PostgresQuery {
        let (id, secret) = puppet(index)
        return PostgresQuery(unsafeSQL: "SELECT count(*) FROM screenmates.my_memberships('\(id)', '\(secret)')")
    }

    /// Two calls of one login, the first holding its transaction open after binding the id the
    /// quota still allowed: the second waits for it and is then refused, where it counted the
    /// same ids as the first and bound one more.
    @Test func aLoginsCountOfNewIdsAndItsNextIdAreOneStep() async throws {
        let group = try await HostileGroup.make()
        let eve = group.eve
        let bound = try await group.values(
            "SELECT count(*) FROM screenmates.identity WHERE role_name = '\(eve.login.user)'", Int64.self)
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET new_members_per_login_per_day = \(bound[0] + 1)", on: group.owner)
        try await PostgresTestServer.withConnection(to: eve.login) { first in
            _ = try await first.query("BEGIN", logger: HostileGroup.logger).collect()
            #expect(try await HostileGroup.sqlState(of: Self.bind(1), on: first) == nil)
            let second = Task { try await HostileGroup.sqlState(of: Self.bind(2), as: eve.login) }
            try await Task.sleep(for: .milliseconds(500))
            _ = try await first.query("COMMIT", logger: HostileGroup.logger).collect()
            #expect(try await second.value == "SMQTA", "the second id, counted after the first was bound")
        }
        #expect(
            try await group.values(
                "SELECT count(*) FROM screenmates.identity WHERE role_name = '\(eve.login.user)'", Int64.self)
                == [bound[0] + 1])
        try await group.expectVictimStillWorks()
    }

    /// Five parallel connections of one login, each binding new ids: the login ends with as many
    /// as the day's quota allows, never more.
    @Test func parallelCallsOfOneLoginBindNoMoreIdsThanItsQuota() async throws {
        let group = try await HostileGroup.make()
        let eve = group.eve
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET new_members_per_login_per_day = 30", on: group.owner)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for worker in 0..<5 {
                tasks.addTask {
                    try await PostgresTestServer.withConnection(to: eve.login) { connection in
                        for index in 0..<12 {
                            _ = try await HostileGroup.sqlState(of: Self.bind(worker * 100 + index), on: connection)
                        }
                    }
                }
            }
            try await tasks.waitForAll()
        }
        #expect(
            try await group.values(
                """
                SELECT count(*) FROM screenmates.identity WHERE role_name = '\(eve.login.user)'
                    AND bound_at > clock_timestamp() - interval '1 day'
                """, Int64.self) == [30])
    }

    /// Ids in all, not only a day's: past `members_per_login` a login binds no more.
    @Test func aLoginBindsNoMoreIdsInAllThanTheStoreAllows() async throws {
        let group = try await HostileGroup.make()
        let eve = group.eve
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET members_per_login = 3", on: group.owner)
        var states: [String?] = []
        for index in 0..<4 { states.append(try await HostileGroup.sqlState(of: Self.bind(index), as: eve.login)) }
        #expect(states == [nil, nil, "SMQTA", "SMQTA"], "eve's own id and two more")
        try await group.expectVictimStillWorks()
    }

    /// Wrong codes sent by one login under several ids: the login's budget ends them all, so new
    /// ids bring no guesses of their own; another login still finds groups.
    @Test func aLoginsNewIdsBringNoWrongCodesOfTheirOwn() async throws {
        let group = try await HostileGroup.make()
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET wrong_codes_per_login_per_hour = 8", on: group.owner)
        let outcomes = try await Self.wrongCodes(ids: 3, each: 4, as: group.eve.login)
        #expect(outcomes == Array(repeating: "unknown", count: 8) + Array(repeating: "limited", count: 4))
        let bo = group.bo
        #expect(try await bo.store.group(code: GroupStoreContract.unusedCode, userID: bo.userID, now: group.now) == nil)
        #expect(try await bo.store.group(code: group.code, userID: bo.userID, now: group.now)?.memberCount == 3)
        try await group.expectVictimStillWorks()
    }

    /// A membership question is a lookup: a code that names no group counts as a wrong code for
    /// the id and the login, as `find_group`'s do, and once the login's budget is spent no
    /// question about any code is answered — not even which codes name a group (`SMNOT`, what a
    /// right code of a group one is not in answers, as `find_group` answers `found`).
    @Test func membershipQuestionsAreCountedAsLookups() async throws {
        let group = try await HostileGroup.make()
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET wrong_codes_per_login_per_hour = 8", on: group.owner)
        let alphabet = Array(GroupCode.alphabet)
        func ask(_ index: Int, _ code: String) -> PostgresQuery {
            let (user, secret) = Self.puppet(index)
            return PostgresQuery(
                unsafeSQL: "SELECT known FROM screenmates.group_members('\(user)', '\(secret)', '\(code)')")
        }
        let right = try await HostileGroup.sqlState(of: ask(0, group.code.value), as: group.eve.login)
        #expect(right == "SMNOT")
        var answers: [String] = []
        for index in 0..<10 {
            let wrong = "ZZZX" + String(alphabet[index / 4]) + String(alphabet[index % 4])
            answers.append(try await HostileGroup.sqlState(of: ask(index / 4, wrong), as: group.eve.login) ?? "unknown")
        }
        #expect(answers == Array(repeating: "unknown", count: 8) + ["SMLIM", "SMLIM"], "\(answers)")
        #expect(try await HostileGroup.sqlState(of: ask(3, group.code.value), as: group.eve.login) == "SMLIM")
        // The login's members' own groups still read.
        #expect(try await group.eve.store.members(code: group.code).count == 3)
    }

    /// A login the owner lists as shared by several members keeps a budget per id: one member's
    /// wrong codes keep the others from nothing.
    @Test func aSharedLoginKeepsABudgetPerId() async throws {
        let group = try await HostileGroup.make(sharedLogin: true)
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET wrong_codes_per_login_per_hour = 8",
            "INSERT INTO screenmates.shared_login VALUES ('\(group.eve.login.user)')", on: group.owner)
        let outcomes = try await Self.wrongCodes(ids: 3, each: 4, as: group.eve.login)
        #expect(outcomes == Array(repeating: "unknown", count: 12))
        let bo = group.bo
        #expect(try await bo.store.group(code: GroupStoreContract.unusedCode, userID: bo.userID, now: group.now) == nil)
    }

    /// `each` wrong codes looked up under each of `ids` new ids of one login: the outcomes in order.
    static func wrongCodes(ids: Int, each: Int, as login: PostgresAddress) async throws -> [String] {
        let alphabet = Array(GroupCode.alphabet)
        return try await PostgresTestServer.withConnection(to: login) { connection in
            var outcomes: [String] = []
            for id in 0..<ids {
                let (user, secret) = puppet(id)
                for index in 0..<each {
                    let wrong = "ZZZY" + String(alphabet[id]) + String(alphabet[index])
                    let rows = try await connection.query(
                        "SELECT outcome FROM screenmates.find_group(\(user), \(secret), \(wrong), NULL)",
                        logger: HostileGroup.logger
                    ).collect()
                    outcomes.append(try rows.first?.decode(String.self) ?? "none")
                }
            }
            return outcomes
        }
    }

    /// Claims on ids from before identities: one login files at most `claims_per_login`, so no
    /// one login fills an id's twenty and keeps its owner out; the same claim again adds nothing.
    @Test func aLoginFilesNoMoreClaimsThanTheStoreAllows() async throws {
        let group = try await HostileGroup.make()
        let eve = group.eve
        let old = (0..<7).map { "old\($0)2345" }
        try await PostgresTestServer.execute(
            "INSERT INTO screenmates.legacy_user (user_id) VALUES " + old.map { "('\($0)')" }.joined(separator: ", "),
            on: group.owner)
        func claim(_ id: String, secret: Int) -> PostgresQuery {
            PostgresQuery(unsafeSQL: "SELECT screenmates.claim_identity('\(id)', '\(String(format: "%064x", secret))')")
        }
        var states: [String?] = []
        for (index, id) in old.prefix(6).enumerated() {
            states.append(try await HostileGroup.sqlState(of: claim(id, secret: index), as: eve.login))
        }
        #expect(states == [nil, nil, nil, nil, nil, "SMQTA"])
        #expect(try await HostileGroup.sqlState(of: claim(old[0], secret: 0), as: eve.login) == nil, "the same claim")
        #expect(
            try await group.values(
                "SELECT count(*) FROM screenmates.identity_claim WHERE role_name = '\(eve.login.user)'", Int64.self)
                == [5])
        // ana's own claim on the id eve claimed goes in beside eve's.
        #expect(try await HostileGroup.sqlState(of: claim(old[0], secret: 99), as: group.ana.login) == nil)
        #expect(
            try await group.values(
                "SELECT count(*) FROM screenmates.identity_claim WHERE user_id = '\(old[0])'", Int64.self) == [2])
    }

    /// A group keeps at most `challenges_per_group` challenges whatever their days: one that began
    /// two days ago and lasted a day (never running, so never counted before) counts.
    @Test func aGroupHoldsNoMoreChallengesThanTheStoreAllowsWhateverTheirDays() async throws {
        let group = try await HostileGroup.make()
        let eve = group.eve
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET challenges_per_group = 4", on: group.owner)
        var refused: [Bool] = []
        for index in 0..<4 {
            let ended = Challenge(
                id: "ended\(index)", rule: .streak, firstDay: group.today.adding(days: -2), days: 1, reward: 0,
                penalty: 0)
            do {
                try await eve.store.createGroupChallenge(ended, code: group.code, creatorID: eve.userID, now: group.now)
                refused.append(false)
            } catch {
                refused.append(true)
                #expect(error.message.contains("as many challenges as the store allows"), "\(error.message)")
            }
        }
        #expect(refused == [false, false, false, true], "ana's challenge and eve's three")
        try await group.expectVictimStillWorks()
    }

    /// A member is in at most `challenges_joined_per_member` of the group's challenges, those they
    /// made included.
    @Test func aMemberIsInNoMoreChallengesThanTheStoreAllows() async throws {
        let group = try await HostileGroup.make()
        let (ana, bo, eve) = (group.ana, group.bo, group.eve)
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET challenges_joined_per_member = 2", on: group.owner)
        func challenge(_ id: String) -> Challenge {
            Challenge(id: id, rule: .streak, firstDay: group.today, days: 7, reward: 0, penalty: 0)
        }
        try await ana.store.createGroupChallenge(
            challenge("anatwo"), code: group.code, creatorID: ana.userID, now: group.now)
        try await bo.store.createGroupChallenge(
            challenge("botwo"), code: group.code, creatorID: bo.userID, now: group.now)
        var joined: [Bool] = []
        for id in [HostileGroup.challengeID, "anatwo", "botwo"] {
            joined.append(
                (try? await eve.store.joinGroupChallenge(
                    id: id, code: group.code, userID: eve.userID, today: group.today, now: group.now)) != nil)
        }
        #expect(joined == [true, true, false])
        await #expect(throws: GroupStoreError.self) {
            try await ana.store.createGroupChallenge(
                challenge("anathree"), code: group.code, creatorID: ana.userID, now: group.now)
        }
        try await group.expectVictimStillWorks()
    }

    /// A challenge has at most `participants_per_challenge`: ana's, with ana and bo in it, takes no
    /// third at a bound of two.
    @Test func aChallengeTakesNoMoreParticipantsThanTheStoreAllows() async throws {
        let group = try await HostileGroup.make()
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET participants_per_challenge = 2", on: group.owner)
        let eve = group.eve
        do {
            _ = try await eve.store.joinGroupChallenge(
                id: HostileGroup.challengeID, code: group.code, userID: eve.userID, today: group.today, now: group.now)
            Issue.record("a third participant joined")
        } catch {
            #expect(error.message.contains("as many participants as the store allows"), "\(error.message)")
        }
        try await group.expectVictimStillWorks()
    }

    /// Groups a login creates in a day, over all its ids: at a bound of two, a third id's group is
    /// refused though that id made none.
    @Test func aLoginCreatesNoMoreGroupsADayThanTheStoreAllows() async throws {
        let group = try await HostileGroup.make()
        try await PostgresTestServer.execute(
            "UPDATE screenmates.store_policy SET groups_created_per_login_per_day = 2", on: group.owner)
        let (day, ms) = (group.day(0), group.nowMilliseconds)
        var states: [String?] = []
        for index in 0..<3 {
            let (id, secret) = Self.puppet(index)
            let create = PostgresQuery(
                unsafeSQL: """
                    SELECT * FROM screenmates.create_group('\(id)', '\(secret)', 8, 'puppet\(index)', 0, \(day), 0,
                        \(ms), \(ms), 1, \(ms))
                    """)
            states.append(try await HostileGroup.sqlState(of: create, as: group.eve.login))
        }
        #expect(states == [nil, nil, "SMQTA"])
        try await group.expectVictimStillWorks()
    }
}
