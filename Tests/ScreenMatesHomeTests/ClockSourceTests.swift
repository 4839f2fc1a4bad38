import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore
import Testing

/// The debug panel's end of the day on the clock: only a simulated clock this process publishes
/// may jump, and the jump is published for the commands started after it.
@Suite struct ClockSourceTests {
    /// The zone the home's days are counted in, pinned (not the machine's).
    static let zone = TimeZoneSource.fixed(TimeZone(identifier: "America/New_York")!)

    private func store() throws -> (String, LocalStore) {
        let path = NSTemporaryDirectory() + "screenmates-clock-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (path, try LocalStore.open(at: path + "/local.sqlite"))
    }

    @Test func aPublishedSimulatedClockJumpsAndIsPublishedAgain() throws {
        let (path, store) = try store()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = TimeFormat.parseInstant("2026-11-21T15:00", timeZone: .gmt)!
        let midnight = TimeFormat.parseInstant("2026-11-22T00:00", timeZone: .gmt)!
        let choice = try ClockSource.choose(speed: 2, startAt: start, store: store, publish: true, timeZone: Self.zone)
        let clock = try ClockSource.adjustable(choice)
        let jumpStarted = Date()
        let after = try ClockSource.jump(clock, to: midnight, store: store)
        let jumpTook = Date().timeIntervalSince(jumpStarted)
        // At ×2, the clock is at most twice the jump's real time past midnight (whatever the
        // machine's speed), and the publication is stored to the millisecond.
        let slack = 0.005
        #expect(after >= midnight && after <= midnight.addingTimeInterval(2 * jumpTook + slack))
        let publication = try #require(try store.publishedClock())
        let readStarted = Date()
        let reading = clock.now()
        let readTook = Date().timeIntervalSince(readStarted)
        let published = publication.appTime(atReal: readStarted)
        // The publication reads what the clock reads, up to twice the time the jump (which
        // publishes, then moves the clock) and the reading took.
        #expect(
            abs(published.timeIntervalSince(reading)) <= 2 * (jumpTook + readTook) + slack,
            "the publication reads what the clock reads")
        #expect(publication.speed == 2)
    }

    @Test func theSystemClockAndAFollowedClockRefuseToJump() throws {
        let (path, store) = try store()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let system = try ClockSource.choose(speed: nil, startAt: nil, store: store, publish: false, timeZone: Self.zone)
        #expect(throws: AppError.self) { try ClockSource.adjustable(system) }
        do {
            _ = try ClockSource.adjustable(system)
        } catch {
            #expect(error.message.contains("--speed or --start-at"))
            #expect(error.exitStatus == 64)
        }
        let unpublished = try ClockSource.choose(
            speed: 60, startAt: nil, store: store, publish: false, timeZone: Self.zone)
        #expect(throws: AppError.self) { try ClockSource.adjustable(unpublished) }
        #expect(try store.publishedClock() == nil, "nothing was published")
    }

    /// A clock never starts before the data a home holds: refused (exit 64) with the home, the
    /// instant its data reaches, and the ways out; at that instant or after, it starts.
    @Test func aClockStartingBeforeTheHomesDataIsRefused() throws {
        let (path, store) = try store()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let zone = Self.zone.current()
        let day = LocalDate(iso8601: "2026-11-21")!
        _ = try store.createProfileIfNeeded(userID: "abcd2345", trackingStart: day, apps: [])
        let evening = TimeFormat.parseInstant("2026-11-21T18:30", timeZone: zone)!
        try store.record([
            UsageEvent(id: UUID(), appID: "tiktok", category: .vice, seconds: 900, occurredAt: evening)
        ])
        let before = TimeFormat.parseInstant("2026-11-21T15:00", timeZone: zone)!
        do {
            _ = try ClockSource.choose(speed: 60, startAt: before, store: store, publish: true, timeZone: Self.zone)
            Issue.record("a start before the data was accepted")
        } catch {
            #expect(error.exitStatus == 64)
            #expect(error.message.contains(path), "names the home: \(error.message)")
            #expect(error.message.contains("2026-11-21T18:30"), "names where the data reaches: \(error.message)")
            #expect(error.message.contains("--start-at 2026-11-21T18:30"), "a later start: \(error.message)")
            #expect(error.message.contains("--home"), "another home: \(error.message)")
        }
        #expect(try store.publishedClock() == nil, "nothing was published")
        let choice = try ClockSource.choose(
            speed: 60, startAt: evening, store: store, publish: false, timeZone: Self.zone)
        #expect(choice.clock.now() >= evening)
    }

    /// `--speed` alone starts the clock now, which is as much a going back when the home's
    /// data is ahead of the real time (a faster run before); the real clock is never refused.
    @Test func aFastClockStartingNowBehindTheDataIsRefusedButTheRealClockIsNot() throws {
        let (path, store) = try store()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ahead = Date().addingTimeInterval(3 * 86_400)
        _ = try store.createProfileIfNeeded(
            userID: "abcd2345", trackingStart: DayCalendar(timeZone: Self.zone.current()).day(containing: ahead),
            apps: [])
        #expect(throws: AppError.self) {
            try ClockSource.choose(speed: 60, startAt: nil, store: store, publish: false, timeZone: Self.zone)
        }
        #expect(
            try ClockSource.choose(speed: nil, startAt: nil, store: store, publish: false, timeZone: Self.zone).clock
                is SystemClock)
    }
}
