import Foundation
import ScreenMatesGroupSync
import Testing

@testable import ScreenMatesReports

@Suite struct DashboardContentBuilderTests {
    /// A sync is the link talking to the store, on the real clock: a demo at ×120 that synced 15
    /// real seconds ago (30 minutes of its app clock) says so as "just now", not "30m ago".
    @Test func syncAgesAreSaidInRealTime() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let status = GroupLink.Status(
            snapshot: nil, offline: false, problem: nil, lastSyncedAt: now.addingTimeInterval(-1800), unsyncedDays: 0)
        #expect(DashboardContentBuilder.syncNote(status, now: now, clockSpeed: 120) == "synced just now")
        #expect(DashboardContentBuilder.syncNote(status, now: now, clockSpeed: 10) == "synced 3m ago")
        #expect(DashboardContentBuilder.syncNote(status, now: now, clockSpeed: 1) == "synced 30m ago")
        #expect(DashboardContentBuilder.syncNote(status, now: now) == "synced 30m ago")
    }
}
