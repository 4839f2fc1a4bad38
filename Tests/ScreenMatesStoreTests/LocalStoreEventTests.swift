import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

@Suite struct LocalStoreEventTests {
    @Test func theSameEventRecordedTwiceCountsOnce() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        let event = Fixtures.event(.vice, at: "2026-11-21T10:00:00Z")
        #expect(try store.record([event]) == 1)
        #expect(try store.record([event]) == 0)
        #expect(try store.eventCount() == 1)
        #expect(try store.allEventIDs() == [event.id])
    }

    @Test func replayingABatchThreeTimesChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        let events = (0..<20).map { i in
            Fixtures.event(i % 3 == 0 ? .productive : .vice, at: "2026-11-21T0\(i % 10):\(10 + i)")
        }
        let day = Fixtures.instant("2026-11-21T00:00")..<Fixtures.instant("2026-11-22T00:00")
        #expect(try store.record(events) == 20)
        let first = DailyLedger.fold(try store.events(in: day), exchangeRate: 1)
        for _ in 0..<3 { #expect(try store.record(events.shuffled()) == 0) }
        #expect(try store.eventCount() == 20)
        #expect(DailyLedger.fold(try store.events(in: day), exchangeRate: 1) == first)
    }

    @Test func eventsAfterASequenceAreOnlyTheNewOnes() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        try store.record([Fixtures.event(.vice, at: "2026-11-21T10:00"), Fixtures.event(.vice, at: "2026-11-21T10:15")])
        let mark = try store.latestSequence()
        let late = Fixtures.event(.productive, at: "2026-11-21T09:00")
        try store.record([late])
        let fresh = try store.events(after: mark)
        #expect(fresh.map(\.event.id) == [late.id])
        #expect(fresh[0].sequence > mark)
    }

    @Test func eventsRoundTripThroughTheStore() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        let event = UsageEvent(
            id: UUID(), appID: "kindle", category: .productive, seconds: 900,
            occurredAt: Date(timeIntervalSince1970: 1_795_000_000.123))
        try store.record([event])
        let back = try #require(try store.events(after: 0).first?.event)
        #expect(back == event)
    }

    @Test func aNonPositiveDurationIsRefusedAndNothingIsStored() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        let good = Fixtures.event(.vice, at: "2026-11-21T10:00")
        var bad = Fixtures.event(.vice, at: "2026-11-21T10:15")
        bad.seconds = 0
        #expect(throws: StoreError.self) { try store.record([good, bad]) }
        #expect(try store.eventCount() == 0)
    }

    @Test func aDurationBeyondTheLongestBlockIsRefused() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        var huge = Fixtures.event(.vice, at: "2026-11-21T10:00")
        huge.seconds = Int.max
        #expect(throws: StoreError.self) { try store.record([huge]) }
        huge.seconds = UsageEvent.secondsRange.upperBound + 1
        #expect(throws: StoreError.self) { try store.record([huge]) }
        #expect(try store.eventCount() == 0)
    }

    @Test func aStoredRowWithAWildDurationIsReportedAsDamageNotACrash() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        // Another program (or a bad disk) wrote a value no monitor would.
        let queue = try DatabaseQueue(path: directory.databasePath)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO usage_event (id, app_id, category, seconds, occurred_at, recorded_at)
                    VALUES (?, 'tiktok', 'vice', 9223372036854775807, 1795000000000, 0)
                    """, arguments: [UUID().uuidString])
        }
        #expect {
            try store.events(after: 0)
        } throws: { error in
            guard case .damaged = error as? StoreError else { return false }
            return true
        }
    }

    @Test func aStoredUserIDThatIsNotOneIsReportedAsDamageNotACrash() throws {
        let directory = TemporaryDirectory()
        let store = try Fixtures.store(in: directory)
        let queue = try DatabaseQueue(path: directory.databasePath)
        for bad in ["", "abc 2345", "abcd234\u{1B}", String(repeating: "a", count: 65)] {
            try queue.write { db in try db.execute(sql: "UPDATE profile SET user_id = ?", arguments: [bad]) }
            #expect {
                try store.settings()
            } throws: { error in
                guard case .damaged(_, let detail) = error as? StoreError else { return false }
                return detail == "profile.user_id holds a value that cannot be right"
            }
        }
        try queue.write { db in try db.execute(sql: "UPDATE profile SET user_id = 'abcd2345'") }
        #expect(try store.settings()?.userID == UserID("abcd2345"))
    }

    @Test func twoStoresOnOneFileSeeEachOthersCommits() throws {
        let directory = TemporaryDirectory()
        let writer = try Fixtures.store(in: directory)
        let reader = try LocalStore.open(at: directory.databasePath)
        try writer.record([Fixtures.event(.vice, at: "2026-11-21T10:00")])
        #expect(try reader.eventCount() == 1)
    }
}
