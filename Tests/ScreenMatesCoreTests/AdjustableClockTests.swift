import Foundation
import ScreenMatesCore
import Testing

/// The clock the debug panel moves to the end of the day: forward only, at the same speed.
@Suite struct AdjustableClockTests {
    let start = Date(timeIntervalSince1970: 1_795_300_000)

    @Test func aJumpMovesTheClockForwardAndKeepsItsSpeed() {
        let clock = AdjustableClock(SimulatedClock(startingAt: start, speed: 60))
        let target = start.addingTimeInterval(9 * 3600)
        let after = clock.jump(to: target)
        #expect(after >= target && after < target.addingTimeInterval(60), "just past the target: \(after)")
        #expect(clock.speed == 60)
        #expect(clock.now() >= after, "it runs on from there")
    }

    @Test func aJumpBackIsIgnored() {
        let clock = AdjustableClock(SimulatedClock(startingAt: start, speed: 1))
        let before = clock.now()
        let after = clock.jump(to: start.addingTimeInterval(-3600))
        #expect(after >= before, "the clock never moves back")
        #expect(clock.now() >= before)
    }

    /// Held, the clock reads the same instant however fast it runs (at ×1,000,000 a running
    /// clock moves between two reads); resumed, it runs on from there, never from before.
    @Test func aHeldClockStandsStillAndRunsOnFromWhereItWasHeld() {
        let clock = AdjustableClock(SimulatedClock(startingAt: start, speed: 1_000_000))
        clock.pause()
        #expect(clock.isPaused)
        let held = clock.now()
        #expect(clock.now() == held)
        #expect(clock.now() == held, "still held")
        #expect(clock.speed == 1_000_000)
        let resumed = clock.resume()
        #expect(resumed == held)
        #expect(!clock.isPaused)
        #expect(clock.now() >= held)
    }

    /// The end of the day while held moves the held instant forward, not back.
    @Test func aJumpWhileHeldMovesTheHeldInstantForwardOnly() {
        let clock = AdjustableClock(SimulatedClock(startingAt: start, speed: 1))
        clock.pause()
        let held = clock.now()
        #expect(clock.jump(to: held.addingTimeInterval(-60)) == held)
        let target = held.addingTimeInterval(3600)
        #expect(clock.jump(to: target) == target)
        #expect(clock.now() == target, "held at the new instant")
        #expect(clock.isPaused)
    }
}
