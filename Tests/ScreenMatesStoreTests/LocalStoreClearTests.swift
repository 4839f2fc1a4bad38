import Foundation
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// Clearing local data (the debug panel): everything the home recorded goes in one transaction;
/// the user id and the member version stay, so the group store still knows the user.
@Suite struct LocalStoreClearTests {
    @Test func clearingForgetsEverythingButTheUserIDAndTheMemberVersion() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        try store.setDisplayName(try DisplayName(validating: "ana"))
        let code = try GroupCode(validating: "ABC234")
        try store.setGroup(GroupMembership(code: code, dailyGoalBlocks: 6))
        let version = try store.nextMemberVersion()
        try store.saveGroupCache(GroupCacheEntry(code: code, snapshot: Data("{}".utf8), fetchedAt: Date()))
        let early = Fixtures.event(.vice, at: "2026-11-02T10:00")
        _ = try store.record([early, Fixtures.event(.productive, at: "2026-11-03T09:00")])
        _ = try store.rollOver(
            clockDay: LocalDate(iso8601: "2026-11-05")!, calendar: DayCalendar(timeZone: Fixtures.utc),
            now: Fixtures.instant("2026-11-05T00:00"))
        #expect(try !store.history().isEmpty)
        let day = LocalDate(iso8601: "2026-11-05")!
        _ = try store.claim(
            deliver: [Notice(kind: .dailyReset, day: day, title: "A new day", body: "")], countAsSent: [],
            at: Date())
        let sequenceBefore = try store.latestSequence()

        let apps = [TrackedApp(id: "reddit", name: "Reddit", bundleID: "com.reddit.Reddit", category: .vice)]
        let settings = try store.clearLocalData(trackingStart: day, apps: apps, now: Date())

        #expect(settings.userID == UserID("abcd2345"))
        #expect(settings.displayName == nil)
        #expect(settings.group == nil)
        #expect(settings.apps == apps)
        #expect(settings.rules == UsageRules(), "the rules are the defaults again")
        #expect(try store.eventCount() == 0)
        #expect(try store.history().isEmpty)
        #expect(try store.shownNotices().isEmpty)
        #expect(try store.noticeKeys(day: day).keys.isEmpty)
        #expect(try store.groupCache(code: code) == nil)
        let state = try #require(try store.dayState())
        #expect(state.trackingStart == day && state.lastReset == day)
        #expect(try store.nextMemberVersion() == version + 1, "the member version goes on from where it was")
        // A cleared event may be recorded again (it is new to this home); numbering goes on.
        #expect(try store.record([early]) == 1)
        #expect(try store.latestSequence() > sequenceBefore)
    }

    @Test func clearingAHomeWithoutAProfileStartsOne() throws {
        let directory = TemporaryDirectory()
        let store = try LocalStore.open(at: directory.databasePath)
        let day = LocalDate(iso8601: "2026-11-21")!
        let settings = try store.clearLocalData(trackingStart: day, apps: Fixtures.apps, now: Date())
        #expect(settings.userID.value.count == 8)
        #expect(try store.settings() == settings)
    }
}
