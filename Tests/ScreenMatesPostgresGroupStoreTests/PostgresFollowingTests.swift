import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import Testing

@testable import ScreenMatesPostgresGroupStore

/// How a PostgreSQL store follows a group's changes: live where the server's notifications reach
/// it, by asking for the change number every 2 s where they do not — behind a real PgBouncer in
/// transaction mode (`.ci/pgbouncer`, which `.ci/run` starts), or when the URL says `live=poll`.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
struct PostgresFollowingTests {
    private typealias Contract = GroupStoreContract
    private typealias Server = PostgresTestServer

    /// PgBouncer in front of the test server, when one runs.
    static let bouncer = ProcessInfo.processInfo.environment["SCREENMATES_TEST_PGBOUNCER"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The same database, reached through PgBouncer.
    static func throughBouncer(_ direct: PostgresAddress) throws -> PostgresAddress {
        var through = direct
        through.endpoint = try PostgresAddress(url: try #require(bouncer)).endpoint
        return through
    }

    /// Two stores of one group, the first watching it: its stream's yields counted.
    struct Watched {
        let watching: PostgresGroupStore
        let writing: PostgresGroupStore
        let group: Group
        let counter: GroupStoreContract.YieldCounter

        init(_ address: PostgresAddress) async throws {
            watching = PostgresGroupStore(address: address, keyring: Server.keyring)
            writing = PostgresGroupStore(address: address, keyring: Server.keyring)
            group = try await Contract.newGroup(in: watching)
            _ = try await writing.join(code: group.code, member: Contract.bo, now: Contract.start)
            counter = Contract.YieldCounter(watching.changes(code: group.code))
        }

        /// Another member's report reaches the watching store's stream.
        func reportReaches(version: Int64) async throws -> Bool {
            let before = counter.yields
            var update = Contract.bo
            update.version = version
            update.blocksToday = Int(version)
            try await writing.upsertProfile(update)
            return try await counter.waitForMore(than: before, timeout: .seconds(30))
        }

        func close() async {
            await counter.cancel()
            await watching.close()
            await writing.close()
        }
    }

    /// Waits until `store` follows some other way than live, or 30 s.
    static func waitUntilPolling(_ store: PostgresGroupStore) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while store.following == .live && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(.enabled(if: bouncer != nil, "needs PgBouncer: .ci/pgbouncer start DIR \"$SCREENMATES_TEST_POSTGRES\""))
    func behindAConnectionPoolerTheStoreFindsNotificationsMissingAndAsksEveryTwoSeconds() async throws {
        let watched = try await Watched(try Self.throughBouncer(try await Server.newPreparedDatabase()))
        #expect(try await watched.counter.waitForMore(than: 0, timeout: .seconds(30)), "a first yield")
        try await Self.waitUntilPolling(watched.watching)
        #expect(watched.watching.following == .polling(every: .seconds(2)))
        #expect(watched.watching.following.description == "polling every 2 s")
        #expect(try await watched.reportReaches(version: 2), "another member's report, asked for")
        #expect(try await watched.reportReaches(version: 3))
        // Nothing moves: the change number asked for is the same, and nothing is signalled.
        try await Task.sleep(for: .seconds(1))
        let settled = watched.counter.yields
        try await Task.sleep(for: .seconds(5))
        #expect(watched.counter.yields == settled, "no signal while nothing changed")
        await watched.close()
    }

    @Test func onADirectServerNotificationsComeBackAndTheStoreStaysLive() async throws {
        let watched = try await Watched(try await Server.newPreparedDatabase())
        #expect(try await watched.counter.waitForMore(than: 0, timeout: .seconds(30)), "the probe came back")
        try await Task.sleep(for: PostgresChangeFeed.probeTimeout + .seconds(1))
        #expect(watched.watching.following == .live)
        #expect(try await watched.reportReaches(version: 2))
        await watched.close()
    }

    /// A server whose writes leave their notices out (its notification queue near full, which a
    /// member can hold; stood for by a limit of 0, and a notice that would fail were it sent: the
    /// group's channel emptied, as a full queue fails every commit that notifies): every write
    /// still goes through, the listening store says it asks every 2 s and gets another member's
    /// report, and is live again once the notices are back.
    @Test func whileTheServerLeavesItsNoticesOutWritesGoThroughAndTheStoreAsks() async throws {
        let address = try await Server.newPreparedDatabase()
        let watched = try await Watched(address)
        #expect(try await watched.counter.waitForMore(than: 0, timeout: .seconds(30)), "the probe came back")
        try await Task.sleep(for: PostgresChangeFeed.probeTimeout + .seconds(1))
        #expect(watched.watching.following == .live)
        let code = watched.group.code.value
        let channel = try await Server.withConnection(to: address) { connection in
            try await connection.query(
                "SELECT channel FROM screenmates.group_info WHERE code = \(code)", logger: Logger(label: "tests")
            ).collect().first?.decode(String.self) ?? ""
        }
        try await Server.execute(
            "UPDATE screenmates.store_policy SET notify_queue_limit = 0",
            "UPDATE screenmates.group_info SET channel = '' WHERE code = '\(code)' RETURNING channel",
            on: address)
        try await Self.waitUntilPolling(watched.watching)
        #expect(watched.watching.following == .polling(every: .seconds(2)))
        #expect(try await watched.reportReaches(version: 2), "a report written without its notice, asked for")
        let bo = try await watched.writing.members(code: watched.group.code).first { $0.userID == Contract.bo.userID }
        #expect(bo?.version == 2)
        try await Server.execute(
            "UPDATE screenmates.store_policy SET notify_queue_limit = 0.5",
            "UPDATE screenmates.group_info SET channel = '\(channel)' WHERE code = '\(code)'", on: address)
        let deadline = ContinuousClock.now + .seconds(30)
        while watched.watching.following != .live && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(watched.watching.following == .live)
        #expect(try await watched.reportReaches(version: 3))
        await watched.close()
    }

    /// A write the server refuses only as it commits (what a full notification queue did to
    /// every write that notified; stood for here by a deferred check that always fails) is
    /// thrown, never answered as stored, and nothing of it is kept.
    @Test func aWriteWhoseCommitFailsIsNeverTakenForStored() async throws {
        let address = try await Server.newPreparedDatabase()
        let store = PostgresGroupStore(address: address, keyring: Server.keyring)
        let group = try await Contract.newGroup(in: store)
        try await Server.execute(
            """
            CREATE FUNCTION public.fails_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'too many notifications in the NOTIFY queue'; END $$
            """,
            """
            CREATE CONSTRAINT TRIGGER fails_at_commit AFTER UPDATE ON screenmates.member
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.fails_at_commit()
            """, on: address)
        var update = Contract.ana
        update.version = 9
        update.blocksToday = 9
        do {
            let stored = try await store.upsertProfile(update)
            Issue.record("a write whose commit failed answered \(stored)")
        } catch {
            #expect("\(error)".contains("too many notifications"), "\(error)")
        }
        try await Server.execute("DROP TRIGGER fails_at_commit ON screenmates.member", on: address)
        let ana = try await store.members(code: group.code).first { $0.userID == Contract.ana.userID }
        #expect(ana?.version != 9)
        #expect(try await store.upsertProfile(update), "stored once the server commits")
        await store.close()
    }

    /// `live=poll`: no listening connection at all, and changes still arrive.
    @Test func theURLCanAskForPollingFromTheStart() async throws {
        let direct = try await Server.newPreparedDatabase()
        var polling = direct
        polling.live = .poll
        let watched = try await Watched(polling)
        #expect(watched.watching.following == .polling(every: .seconds(2)))
        #expect(try await watched.counter.waitForMore(than: 0, timeout: .seconds(30)), "a first yield")
        #expect(try await watched.reportReaches(version: 2))
        #expect(try await Self.connections(to: direct, named: PostgresChangeFeed.applicationName) == 0)
        await watched.close()
    }

    /// Following by asking, the look after a signal takes what the beat that signalled it read
    /// (`ChangesReadAhead`): a member costs the server one call per beat, changes included, and
    /// the look still ends with the group as a whole read has it.
    @Test(.timeLimit(.minutes(4)))
    func followingByAskingTheLookAfterASignalTakesWhatItsBeatRead() async throws {
        var polling = try await Server.newPreparedDatabase()
        polling.live = .poll
        let watching = PostgresGroupStore(address: polling, keyring: Server.keyring)
        let writing = PostgresGroupStore(address: polling, keyring: Server.keyring)
        let group = try await Contract.newGroup(in: watching)
        _ = try await writing.join(code: group.code, member: Contract.bo, now: Contract.start)
        let today = Contract.bo.day
        func look(after previous: GroupSnapshot?) async throws -> GroupLook {
            try await GroupLook.look(
                at: watching, code: group.code, userID: Contract.ana.userID, today: today, now: Contract.start,
                previous: previous)
        }
        var signals = watching.changes(code: group.code).makeAsyncIterator()
        _ = await signals.next()
        var snapshot = try await look(after: nil).snapshot
        var takenAhead = 0
        var looks = 0
        // Five versions at least; more, up to twenty, while fewer than two were taken from a beat (a
        // loaded machine makes beats come while a write commits: the test waits for the property,
        // not for the machine's speed).
        for version in Int64(2)...21 {
            if version > 6 && takenAhead >= 2 { break }
            var update = Contract.bo
            update.version = version
            update.blocksToday = Int(version)
            try await writing.upsertProfile(update)
            // Signals, each followed by a look, until a look has read this version.
            while snapshot.members.first(where: { $0.userID == Contract.bo.userID })?.version != version {
                try #require(await signals.next() != nil, "the stream ended")
                let before = watching.serverCalls
                let seen = try await look(after: snapshot)
                looks += 1
                if seen.changed, watching.serverCalls == before { takenAhead += 1 }
                snapshot = seen.snapshot
            }
        }
        // The first look after the whole read asks the server; the beats after it read ahead. On
        // a loaded machine a beat may come while a write is still committing, and the next look
        // asks the server too: at least two of the versions are taken from a beat.
        #expect(takenAhead >= 2, "\(takenAhead) of \(looks) looks took what their beat read")
        #expect(snapshot.members == (try await watching.members(code: group.code)))
        await watching.close()
        await writing.close()
    }

    @Test func theURLSaysHowToFollow() throws {
        #expect(try PostgresAddress(url: "postgres://ana@db.example/screenmates").live == .auto)
        #expect(try PostgresAddress(url: "postgres://ana@db.example/screenmates?live=poll").live == .poll)
        #expect(throws: PostgresAddressError.self) {
            try PostgresAddress(url: "postgres://ana@db.example/screenmates?live=sometimes")
        }
    }

    /// One member at work holds two connections at most: the listener and one of the pool.
    @Test func aWatchingMemberHoldsAtMostTwoConnections() async throws {
        let direct = try await Server.newPreparedDatabase()
        let store = PostgresGroupStore(address: direct, keyring: Server.keyring)
        let group = try await Contract.newGroup(in: store)
        let counter = Contract.YieldCounter(store.changes(code: group.code))
        #expect(try await counter.waitForMore(than: 0, timeout: .seconds(30)))
        for version in Int64(2)...6 {
            var update = Contract.ana
            update.version = version
            try await store.upsertProfile(update)
            _ = try await store.members(code: group.code)
        }
        let held = try await Self.connections(to: direct, named: nil)
        #expect(held >= 1 && held <= 2, "\(held)")
        await counter.cancel()
        await store.close()
    }

    /// The store's connections to the database of `address` (pooled and listening, or only
    /// those with `named` as their application name).
    static func connections(to address: PostgresAddress, named: String?) async throws -> Int {
        try await Server.withConnection(to: address) { connection in
            let names = named.map { [$0] } ?? [PostgresGroupStore.applicationName, PostgresChangeFeed.applicationName]
            return try await connection.query(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE application_name = ANY(\(names)) AND datname = current_database()
                """, logger: Logger(label: "t")
            ).collect().first?.decode(Int.self) ?? -1
        }
    }
}
