import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesStore
import Testing

/// The debug panel's end of the day on the clock: only a simulated clock this process publishes
/// may jump, and the jump is published for the commands started after it.
@Suite struct ClockSourceTests {
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
        let choice = try ClockSource.choose(speed: 2, startAt: start, store: store, publish: true)
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
        let system = try ClockSource.choose(speed: nil, startAt: nil, store: store, publish: false)
        #expect(throws: AppError.self) { try ClockSource.adjustable(system) }
        do {
            _ = try ClockSource.adjustable(system)
        } catch {
            #expect(error.message.contains("--speed or --start-at"))
            #expect(error.exitStatus == 64)
        }
        let unpublished = try ClockSource.choose(speed: 60, startAt: nil, store: store, publish: false)
        #expect(throws: AppError.self) { try ClockSource.adjustable(unpublished) }
        #expect(try store.publishedClock() == nil, "nothing was published")
    }
}
