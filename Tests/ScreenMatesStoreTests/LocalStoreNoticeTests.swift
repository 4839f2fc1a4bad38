import Foundation
import ScreenMatesCore
import ScreenMatesStore
import Testing

/// Notices are recorded once: whoever records a notice first shows it, everyone else sees it
/// recorded — two dashboards, a restart, or the same decision made twice.
@Suite struct LocalStoreNoticeTests {
    let day = LocalDate(year: 2026, month: 11, day: 21)!
    let now = Date(timeIntervalSince1970: 1_795_300_000)

    func notice(_ kind: Notice.Kind) -> Notice { Notice(kind: kind, day: day, title: kind.name, body: "body") }

    @Test func twoStoresOnOneFileShowEachNoticeOnceBetweenThem() async throws {
        let directory = TemporaryDirectory()
        let first = try LocalStore.open(at: directory.databasePath)
        let second = try LocalStore.open(at: directory.databasePath)
        let notices = [notice(.threshold(.warning)), notice(.threshold(.critical)), notice(.dailyReset)]
        // Both decide the same notices at the same time, many times over.
        let counts = await withTaskGroup(of: Int.self) { group in
            for store in [first, second, first, second] {
                group.addTask {
                    var shown = 0
                    for _ in 0..<20 {
                        shown += (try? store.claim(deliver: notices, countAsSent: [], at: now).count) ?? 0
                    }
                    return shown
                }
            }
            return await group.reduce(0, +)
        }
        #expect(counts == notices.count)
        #expect(try first.shownNotices().count == notices.count)
    }

    @Test func countedAsSentIsRecordedButNotShownOrListed() throws {
        let directory = TemporaryDirectory()
        let store = try LocalStore.open(at: directory.databasePath)
        let claimed = try store.claim(
            deliver: [notice(.threshold(.over))], countAsSent: [notice(.threshold(.warning))], at: now)
        #expect(claimed.map(\.kind) == [.threshold(.over)])
        let recorded = try store.noticeKeys(day: day)
        #expect(recorded.keys == ["\(day) limit-over", "\(day) limit-75"])
        #expect(recorded.shown == 1)
        #expect(try store.shownNotices().map(\.notice.kind) == [.threshold(.over)])
        // Decided again later (a restart): nothing new.
        #expect(try store.claim(deliver: [notice(.threshold(.warning))], countAsSent: [], at: now).isEmpty)
    }

    @Test func aNoticeFromTheCommandLineGoesToOneDashboardOnly() throws {
        let directory = TemporaryDirectory()
        let store = try LocalStore.open(at: directory.databasePath)
        let other = try LocalStore.open(at: directory.databasePath)
        let test = Notice(kind: .test, day: day, title: "Test notice", body: "body", serial: "1")
        #expect(try store.claim(deliver: [test], countAsSent: [], at: now, toasted: false) == [test])
        let taken = try store.takeUntoasted(since: now.addingTimeInterval(-60))
        #expect(taken.map(\.notice) == [test])
        #expect(try other.takeUntoasted(since: now.addingTimeInterval(-60)).isEmpty)
        #expect(try store.takeUntoasted(since: now.addingTimeInterval(-60)).isEmpty)
    }
}
