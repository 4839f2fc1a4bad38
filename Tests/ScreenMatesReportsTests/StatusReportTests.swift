import Foundation
import ScreenMatesCore
import ScreenMatesHomeTestSupport
import Testing

@testable import ScreenMatesReports

@Suite struct StatusReportTests {
    @Test func theJSONCarriesEveryDocumentedKeyAndAgreesWithTheFeed() throws {
        let s = try Scenario(timeZone: "UTC", start: "2026-11-21T14:00", trackingStart: "2026-11-15")
        try s.vice(5, endingAt: "2026-11-21T13:00")
        try s.store.record([
            UsageEvent(
                id: UUID(), appID: "kindle", category: .productive, seconds: 7200,
                occurredAt: s.instant("2026-11-21T08:00"))
        ])
        try s.read()
        let data = DashboardContentBuilder.make(feed: s.feed, now: s.clock.now())
        let json = StatusReport(feed: s.feed, data: data).json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        for key in [
            "date", "dayStartHour", "blocksUsed", "dailyGoalBlocks", "progress", "state", "balanceSeconds",
            "earnedSeconds", "spentSeconds", "overdraftSeconds", "streak", "bestStreak", "eventsApplied", "user",
            "group", "sync", "notifications",
        ] {
            #expect(object[key] != nil, "missing key \(key)")
        }
        #expect(object["date"] as? String == "2026-11-21")
        #expect(object["blocksUsed"] as? Int == 5)
        #expect(object["progress"] as? Double == 0.625)
        #expect(object["state"] as? String == "under")
        #expect(object["earnedSeconds"] as? Int == 7200)
        #expect(object["spentSeconds"] as? Int == 4500)
        #expect(object["balanceSeconds"] as? Int == 2700)
        #expect(object["streak"] as? Int == 6)
        #expect(object["eventsApplied"] as? Int == 6)
        let user = try #require(object["user"] as? [String: Any])
        #expect(user["id"] as? String == "abcd2345")
        #expect(user["name"] as? String == "ana")
        let group = try #require(object["group"] as? [String: Any])
        #expect(group.keys.contains("code"))
        let members = try #require(group["members"] as? [[String: Any]])
        #expect(members.count == 1)
        #expect(members[0]["rank"] as? Int == 1)
        #expect(members[0]["blocksUsed"] as? Int == 5)
        let sync = try #require(object["sync"] as? [String: Any])
        #expect(sync.keys.contains("lastSyncedAt"))
        #expect(sync["offline"] as? Bool == false)
    }
}
