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
}
