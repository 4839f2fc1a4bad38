import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHomeTestSupport
import Testing

@testable import ScreenMatesReports

/// The header's name says when the member is on one of several machines, as the group link last
/// read them, and says nothing of machines otherwise.
@Suite struct MachinesInTheHeaderTests {
    @Test func theNameSaysHowManyMachinesWhenThereIsMoreThanOne() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-21T14:00", trackingStart: "2026-11-15")
        var settings = try #require(try s.store.settings())
        settings.displayName = try DisplayName(validating: "ana")
        try s.store.updateSettings(settings)
        try s.read()
        let day = LocalDate(year: 2026, month: 11, day: 21)!
        func status(machines: Int?) -> GroupLink.Status {
            var snapshot = GroupSnapshot(
                group: Group(
                    code: try! GroupCode(validating: "K7Q2XM"), dailyGoalBlocks: 8, memberCount: 1,
                    createdAt: s.clock.now()),
                members: [], day: day, fetchedAt: s.clock.now())
            snapshot.machinesInUse = machines
            return GroupLink.Status(
                snapshot: snapshot, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 0)
        }
        let names = [nil, 1, 2, 4].map {
            DashboardContentBuilder.make(feed: s.feed, now: s.clock.now(), group: status(machines: $0)).userName
        }
        #expect(names == ["ana", "ana", "ana · 2 machines", "ana · 4 machines"])
        #expect(DashboardContentBuilder.make(feed: s.feed, now: s.clock.now()).userName == "ana")
    }
}
