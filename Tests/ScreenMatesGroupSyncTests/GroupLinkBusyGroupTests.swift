import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesTestSupport
import Synchronization
import Testing

/// A member who leaves a transaction open on a PostgreSQL group store (`psql`: `BEGIN`, a write,
/// and nothing more) holds the group's row: the others' reports give up after the lock timeout.
/// Their dashboards must not go offline for it: the board is still read (reads take no lock), and
/// the report is sent once the row is free.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"] != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\""))
struct GroupLinkBusyGroupTests {
    @Test func aGroupHeldByAnOpenTransactionKeepsTheBoardLiveAndTheReportWaits() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"])
        let path = NSTemporaryDirectory() + "screenmates-busy-group-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = "screenmates_busy_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        #expect(try await Self.psql(server, "CREATE DATABASE \(database)").status == 0)
        let url = server.replacingOccurrences(of: "/postgres?", with: "/\(database)?")

        // ana, on the server's own clock and day (a strict store).
        let utc = TimeZone(identifier: "UTC")!
        let clock = ManualClock(Date())
        let local = try LocalStore.open(at: path + "/local.sqlite")
        var settings = try local.createProfileIfNeeded(
            userID: UserID("ana23456"), trackingStart: DayCalendar(timeZone: utc).day(containing: clock.now()),
            apps: [], now: clock.now())
        settings.displayName = try DisplayName(validating: "ana")
        try local.updateSettings(settings)
        let location = try GroupStoreLocation.postgres(
            url: url, keyring: MemberIdentityFile(path: path + "/member-identity").keyring)
        // The new database's schema first, with the time a migration is given.
        try await location.prepare()
        let group = try await GroupActions(local: local, location: location, clock: clock, timeZone: .fixed(utc))
            .create(goal: 8)
        let membership = try #require(try local.settings()?.group)

        let wentOffline = Atomic<Bool>(false)
        let wasBusy = Atomic<Bool>(false)
        let link = GroupLink(
            local: local, location: location, membership: membership, userID: settings.userID, clock: clock,
            timeZone: .fixed(utc), logger: Logger(label: "test"),
            onChange: { status in
                if status.offline { wentOffline.store(true, ordering: .relaxed) }
                if status.busy { wasBusy.store(true, ordering: .relaxed) }
            })
        let running = Task { await link.run() }
        try await Self.waitFor { link.status.snapshot != nil }

        // Someone holds the group's row; ana's next report comes meanwhile. The row is held until
        // the link has said the group is busy (five minutes at most), then let go: on a loaded
        // machine the report may take longer to meet the held row than any fixed hold would last.
        let holder = try await Self.psqlInBackground(
            url,
            "BEGIN; SELECT 1 FROM screenmates.group_info WHERE code = '\(group.code.value)' FOR UPDATE; "
                + "SELECT pg_sleep(301); COMMIT;")
        try await Self.waitUntil(
            url, "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(301)%'", answers: "2")
        let draft = ProfileDraft(
            displayName: settings.displayName!, blocksToday: 3,
            day: DayCalendar(timeZone: utc).day(containing: clock.now()),
            streak: 0, lastActive: clock.now())
        link.report(draft)
        try await Self.waitFor(seconds: 300) { wasBusy.load(ordering: .relaxed) || holder.hasEnded }
        _ = try await Self.psql(
            url,
            "SELECT pg_cancel_backend(pid) FROM pg_stat_activity "
                + "WHERE query LIKE '%pg_sleep(301)%' AND pid <> pg_backend_pid()")
        _ = await holder.wait()
        // A write the client gave up on may still commit once the row is free, so the board can
        // show the report before the link has sent it again and said so: wait for both.
        try await Self.waitFor {
            link.status.snapshot?.members.first?.blocksToday == 3 && !link.status.busy
        }
        #expect(link.status.lastSyncedAt != nil, "the report went once the row was free")
        let (offline, busy) = (wentOffline.load(ordering: .relaxed), wasBusy.load(ordering: .relaxed))
        #expect(!offline, "the board stayed live while the report waited")
        #expect(busy, "the screen said the report waited")
        #expect(!link.status.busy, "and no longer once it went")
        #expect(link.status.snapshot?.members.first?.blocksToday == 3, "and shows it")
        link.stop()
        await running.value
    }

    /// While a transaction holds the group's row, what a member's own writes meet is said as
    /// what it is — the group busy, not the store out of reach — and only the writes wait: the
    /// games are still read (their settling and reports left for next time), and `sync` reads
    /// and caches the group, says it is busy, and keeps the numbers.
    @Test func aHeldGroupIsSaidBusyAndItsGamesAndBoardAreStillRead() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"])
        let path = NSTemporaryDirectory() + "screenmates-held-group-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = "screenmates_held_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        #expect(try await Self.psql(server, "CREATE DATABASE \(database)").status == 0)
        let url = server.replacingOccurrences(of: "/postgres?", with: "/\(database)?")

        let utc = TimeZone(identifier: "UTC")!
        let clock = ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let local = try LocalStore.open(at: path + "/local.sqlite")
        var settings = try local.createProfileIfNeeded(
            userID: UserID("ana23456"), trackingStart: DayCalendar(timeZone: utc).day(containing: clock.now()),
            apps: [], now: clock.now())
        settings.displayName = try DisplayName(validating: "ana")
        try local.updateSettings(settings)
        let location = try GroupStoreLocation.postgres(
            url: url, keyring: MemberIdentityFile(path: path + "/member-identity").keyring)
        let actions = GroupActions(local: local, location: location, clock: clock, timeZone: .fixed(utc))
        try await location.prepare()
        let group = try await actions.create(goal: 8)
        let membership = try #require(try local.settings()?.group)
        let games = GroupGames(
            local: local, membership: membership, userID: settings.userID, clock: clock,
            calendar: DayCalendar(timeZone: utc))

        let holder = try await Self.psqlInBackground(
            url,
            "BEGIN; SELECT 1 FROM screenmates.group_info WHERE code = '\(group.code.value)' FOR UPDATE; "
                + "SELECT pg_sleep(300); COMMIT;")
        // Holding it: the holder's session sleeping (the query that asks matches itself too).
        try await Self.waitUntil(
            url, "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(300)%'", answers: "2")
        let exchanged = try await location.using { store throws(GroupStoreError) in
            try await games.exchange(with: store)
        }
        guard case .busy(_, let detail) = exchanged.waiting else {
            Issue.record("the settling met the held group: \(String(describing: exchanged.waiting))")
            return
        }
        #expect(detail.contains("lock timeout"), "\(detail)")
        #expect(exchanged.snapshot.rules == .standard, "the games were read all the same")

        clock.advance(by: 60)
        // The server gives up on the row after 2 s and says so; on a machine loaded enough that
        // its answer comes later than a store call waits (5 s), the sync is tried again while the
        // row is still held, for as long as it takes (the row is held for five minutes, then let
        // go once the answer came). Every try keeps the numbers (status 1), none goes through,
        // and the group is said busy, not out of reach, once an answer comes in time.
        var said: [String] = []
        while !holder.hasEnded, !said.contains(where: { $0.contains("is busy") }) {
            do {
                _ = try await actions.syncForCommand()
                Issue.record("a sync went through a held group")
                break
            } catch {
                said.append(error.message)
                #expect(error.exitStatus == 1)
            }
        }
        let busy = try #require(said.last, "no sync was tried while the row was held")
        #expect(busy.contains("is busy"), "\(said)")
        #expect(!busy.contains("cannot be reached"), "\(said)")
        #expect(
            try local.groupCache(code: group.code)?.fetchedAt == clock.now(), "the group was read and cached")
        _ = try await Self.psql(
            url,
            "SELECT pg_cancel_backend(pid) FROM pg_stat_activity "
                + "WHERE query LIKE '%pg_sleep(300)%' AND pid <> pg_backend_pid()")
        _ = await holder.wait()
        #expect(try await actions.syncForCommand().members == 1, "and once the row is free, the numbers go")
    }

    private static func waitFor(seconds: Int = 60, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }

    private static func psql(_ url: String, _ sql: String) async throws -> Command.Result {
        try await Command.run("/usr/bin/env", psqlArguments(url, sql))
    }

    /// Waits until `sql` answers `value` (psql, unaligned).
    private static func waitUntil(_ url: String, _ sql: String, answers value: String) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let answer = try await Command.run("/usr/bin/env", ["psql", "-X", "-tA", url, "-c", sql])
            if answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == value { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private static func psqlInBackground(_ url: String, _ sql: String) async throws -> SpawnedProcess {
        try await SpawnedProcess("/usr/bin/env", psqlArguments(url, sql))
    }

    private static func psqlArguments(_ url: String, _ sql: String) -> [String] {
        ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
    }
}
