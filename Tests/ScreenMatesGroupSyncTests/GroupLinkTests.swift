import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// The group link on a real group-store file.
@Suite struct GroupLinkTests {
    /// Before it has reported anything, the link reads the group for the user's day — on their
    /// calendar, day-start hour included: at 02:00 with a 4 am start it is still yesterday.
    @Test func aSnapshotReadBeforeAnyReportIsForTheUsersDay() async throws {
        let path = NSTemporaryDirectory() + "screenmates-group-link-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let zone = TimeZone(identifier: "America/Chicago")!
        let calendar = DayCalendar(timeZone: zone, dayStartHour: 4)
        let yesterday = LocalDate(iso8601: "2026-11-21")!
        let clock = ManualClock(calendar.instant(on: yesterday.adding(days: 1), hour: 2, minute: 0))
        let local = try LocalStore.open(at: path + "/local.sqlite")
        var settings = try local.createProfileIfNeeded(
            userID: UserID("ana23456"), trackingStart: yesterday, apps: [], now: clock.now())
        settings.displayName = try DisplayName(validating: "ana")
        settings.dayStartHour = 4
        try local.updateSettings(settings)
        let location = GroupStoreLocation.sqlite(path: path + "/group-store.sqlite")
        let group = try await GroupActions(
            local: local, location: location, clock: clock, timeZone: .fixed(zone)
        ).create(goal: 8)
        let membership = try #require(try local.settings()?.group)
        #expect(membership.code == group.code)

        // The link's own reading is told from the one `create` cached by the minute it was made.
        clock.advance(by: 60)
        let link = GroupLink(
            local: local, location: location, membership: membership, userID: settings.userID, clock: clock,
            timeZone: .fixed(zone), logger: Logger(label: "test"), onChange: { _ in })
        let running = Task { await link.run() }
        let deadline = ContinuousClock.now + .seconds(30)
        while link.status.snapshot?.fetchedAt != clock.now() && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(link.status.snapshot?.fetchedAt == clock.now(), "the link read the group")
        #expect(link.status.snapshot?.day == yesterday, "\(String(describing: link.status.snapshot?.day))")
        // Stopped, the link's worker ends, with the tasks it started (the change stream).
        link.stop()
        await running.value
    }

    /// A PostgreSQL server that refuses the login (here: no such database) is a problem the
    /// dashboard shows in the server's words, not "offline": the group as cached stays on screen.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"] != nil,
            "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\""))
    func aRefusedLoginIsAProblemNotOffline() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"])
        let path = NSTemporaryDirectory() + "screenmates-group-link-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let local = try LocalStore.open(at: path + "/local.sqlite")
        var settings = try local.createProfileIfNeeded(
            userID: UserID("ana23456"), trackingStart: LocalDate(iso8601: "2026-11-21")!, apps: [], now: clock.now())
        settings.displayName = try DisplayName(validating: "ana")
        try local.updateSettings(settings)
        _ = try await GroupActions(
            local: local, location: .sqlite(path: path + "/group-store.sqlite"), clock: clock, timeZone: .system
        ).create(goal: 8)
        let membership = try #require(try local.settings()?.group)
        let missing = server.replacingOccurrences(of: "/postgres?", with: "/no_such_database_here?")
        let link = GroupLink(
            local: local, location: try .postgres(url: missing, keyring: .single(settings.userID, .random())),
            membership: membership, userID: settings.userID,
            clock: clock, timeZone: .system, logger: Logger(label: "test"), onChange: { _ in })
        let running = Task { await link.run() }
        let deadline = ContinuousClock.now + .seconds(30)
        while link.status.problem == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let status = link.status
        #expect(status.problem?.contains("database \"no_such_database_here\" does not exist") == true, "\(status)")
        #expect(!status.offline)
        #expect(status.snapshot?.members.map(\.displayName.value) == ["ana"], "the cached group stays")
        link.stop()
        await running.value
    }
}
