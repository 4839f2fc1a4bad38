import Foundation
import GRDB
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHomeTestSupport
import ScreenMatesReports
import ScreenMatesStore
import ScreenMatesTestSupport
import Synchronization
import Testing

@testable import ScreenMatesGroupSync

/// Rows another member wrote by hand into the shared group-store file: the client leaves them
/// out of the group it shows — named in the snapshot, the log, `group show` and the debug panel —
/// and the rest of the group still shows; nothing of them reaches the member's own coins.
@Suite struct LeftOutRowsTests {
    static let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!)
    static let createdAt = TimeFormat.parseInstant("2026-11-21T08:00", timeZone: .gmt)!

    /// Ana's home, and a group-store file where she and bo are a group.
    final class Group {
        let directory = NSTemporaryDirectory() + "screenmates-left-out-" + UUID().uuidString
        let clock = ManualClock(LeftOutRowsTests.createdAt)
        let location: GroupStoreLocation
        let store: any GroupStore
        let local: LocalStore
        let membership: GroupMembership
        let hostile: DatabaseQueue

        init() async throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            location = .sqlite(path: directory + "/group-store.sqlite")
            store = try await location.open(creating: true)
            local = try LocalStore.open(at: directory + "/ana.sqlite")
            let today = LeftOutRowsTests.calendar.day(containing: LeftOutRowsTests.createdAt)
            var settings = try local.createProfileIfNeeded(
                userID: "ana23456", trackingStart: today,
                apps: [TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice)])
            settings.displayName = try DisplayName(validating: "ana")
            try local.updateSettings(settings)
            func profile(_ id: String, _ name: String) throws -> MemberProfile {
                MemberProfile(
                    userID: UserID(id), displayName: try DisplayName(validating: name), blocksToday: 2, day: today,
                    streak: 1, lastActive: nil, lastUpdated: LeftOutRowsTests.createdAt, version: 1)
            }
            let group = try await store.createGroup(
                dailyGoalBlocks: 8, creator: try profile("ana23456", "ana"), now: LeftOutRowsTests.createdAt)
            _ = try await store.join(
                code: group.code, member: try profile("bo234567", "bo"), now: LeftOutRowsTests.createdAt)
            membership = GroupMembership(code: group.code, dailyGoalBlocks: 8)
            try local.setGroup(membership)
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA ignore_check_constraints = ON") }
            hostile = try DatabaseQueue(path: directory + "/group-store.sqlite", configuration: configuration)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        var reporter: GroupReporter {
            GroupReporter(local: local, membership: membership, userID: UserID("ana23456"), clock: clock)
        }

        var games: GroupGames {
            GroupGames(
                local: local, membership: membership, userID: UserID("ana23456"), clock: clock,
                calendar: LeftOutRowsTests.calendar)
        }

        /// Bo renamed "bo cheats" by someone who can write the file (the case: the whole
        /// group's leaderboard froze).
        func renameBo() throws {
            try hostile.write { db in
                try db.execute(sql: "UPDATE member SET display_name = 'bo cheats' WHERE user_id = 'bo234567'")
            }
        }
    }

    static var boLeftOut: LeftOutRow {
        var why = ""
        do { _ = try DisplayName(validating: "bo cheats") } catch { why = error.message }
        return LeftOutRow(.member, key: "bo234567", reason: "display_name \"bo cheats\": \(why)")
    }

    @Test func aMemberThatCannotBeRightIsLeftOutOfTheSnapshotAndNamedWhereverItShows() async throws {
        let group = try await Group()
        try group.renameBo()
        let today = Self.calendar.day(containing: group.clock.now())
        let snapshot = try await group.reporter.snapshot(from: group.store, today: today)
        #expect(snapshot.members.map(\.userID) == [UserID("ana23456")])
        #expect(snapshot.leftOut == [Self.boLeftOut])
        // Kept with the snapshot, and a snapshot cached before rows were left out still reads.
        #expect(GroupSnapshot.decoded(snapshot.encoded()) == snapshot)
        var old = try JSONSerialization.jsonObject(with: snapshot.encoded()) as! [String: Any]
        old["leftOut"] = nil
        let cached = try #require(GroupSnapshot.decoded(try JSONSerialization.data(withJSONObject: old)))
        #expect(cached.leftOut.isEmpty && cached.members == snapshot.members)
        // `group show` names it under the members.
        let report = GroupReport(
            snapshot: snapshot, offline: false, local: group.local, clock: group.clock, timeZone: .gmt)
        let text = report.text()
        #expect(text.hasSuffix("Left out, as they cannot be right:\n  \(Self.boLeftOut)"), "\(text)")
        #expect(report.json().contains("\"leftOut\""))
    }

    /// A forged week worth 2^63−1 coins for ana and a challenge of at most −1 blocks: both left
    /// out of her games and named; nothing booked into her ledger, no challenge copied home.
    @Test func forgedGamesRowsReachNeitherTheLedgerNorTheHome() async throws {
        let group = try await Group()
        let code = group.membership.code.value
        let monday = LocalDate(iso8601: "2026-11-16")!.dayNumber
        try await group.hostile.write { db in
            try db.execute(
                sql: """
                    INSERT INTO week_result VALUES (?, 'ana23456', ?, 'settled', 7, 0, 0, 9223372036854775807,
                        'pending', 5, 10, 0, 0)
                    """, arguments: [code, monday])
            try db.execute(
                sql: """
                    INSERT INTO group_challenge VALUES (?, 'evil12', 'bo234567',
                        '{"dailyBlocks":{"max":-1,"target":{"allVice":{}}}}', ?, 3, 0, 10, NULL, 0, 0)
                    """, arguments: [code, monday + 5])
            try db.execute(
                sql: "INSERT INTO challenge_participant VALUES (?, 'evil12', 'ana23456', 'in', 0, 0, NULL, 0)",
                arguments: [code])
        }
        let (snapshot, _, _) = try await group.games.exchange(with: group.store)
        #expect(Set(snapshot.leftOut.map(\.kind)) == [.weekResult, .challenge], "\(snapshot.leftOut)")
        #expect(snapshot.boards.isEmpty && snapshot.weeks.isEmpty)
        #expect(try group.local.coinLedger().balance == 0)
        #expect(try group.local.challenges().isEmpty)
        #expect(group.games.cached()?.leftOut == snapshot.leftOut, "cached with what was left out")
    }

    /// The link writes each row it left out to the log once, not on every read of the group.
    @Test func theLinkLogsARowLeftOutOnce() async throws {
        let group = try await Group()
        try group.renameBo()
        let records = Records()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        let link = GroupLink(
            local: group.local, location: group.location, membership: group.membership, userID: UserID("ana23456"),
            clock: group.clock, timeZone: .fixed(.gmt), logger: logger, onChange: { _ in })
        let running = Task { await link.run() }
        defer { link.stop() }
        func waitFor(_ condition: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        }
        try await waitFor { link.status.snapshot?.leftOut.isEmpty == false }
        #expect(link.status.snapshot?.members.map(\.userID) == [UserID("ana23456")])
        // Another change of the group: read again, the same row left out, not logged again.
        var newer = try #require(link.status.snapshot?.members.first)
        newer.version = 2
        newer.blocksToday = 5
        try await group.store.upsertProfile(newer)
        try await waitFor { link.status.snapshot?.members.first?.blocksToday == 5 }
        #expect(link.status.snapshot?.members.first?.blocksToday == 5)
        let logged = records.messages.filter { $0.hasPrefix("group store row left out") }
        #expect(logged == ["group store row left out: \(Self.boLeftOut)"], "\(records.messages)")
        link.stop()
        await running.value
    }
}

/// Log messages kept for a test.
final class Records: Sendable {
    private let lines = Mutex<[String]>([])
    var messages: [String] { lines.withLock { $0 } }
    func append(_ message: String) { lines.withLock { $0.append(message) } }
}

struct RecordingLogHandler: LogHandler {
    let records: Records
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append("\(event.message)")
    }
}
