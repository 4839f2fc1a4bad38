import Testing

@testable import ScreenMatesPostgresGroupStore

/// The beat a store that follows its groups by asking keeps: spread by its phase, and kept after
/// a slow answer rather than moved to it.
struct PollBeatTests {
    let start = ContinuousClock.now
    let interval = Duration.seconds(2)

    @Test func theFirstQuestionAfterTheFirstComesAtTheBeatsPhase() {
        var beat = PollBeat(interval: interval, start: start, phase: 0.25)
        #expect(beat.next(after: start) == start + .milliseconds(500))
        #expect(beat.next(after: start + .milliseconds(500)) == start + .milliseconds(2500))
    }

    @Test func anAnswerThatTookLongerThanTheIntervalSkipsTheBeatsItMissedAndKeepsThePhase() {
        var beat = PollBeat(interval: interval, start: start, phase: 0.25)
        _ = beat.next(after: start)
        // Answered 5.3 s late: the beats at 2.5 s and 4.5 s are gone; the next is at 6.5 s.
        #expect(beat.next(after: start + .milliseconds(5300)) == start + .milliseconds(6500))
        #expect(beat.next(after: start + .milliseconds(6600)) == start + .milliseconds(8500))
    }

    @Test func storesHeldUpTogetherAskAgainAtTheirOwnMoments() {
        // Two stores whose answers came back at the same moment after a stall.
        var early = PollBeat(interval: interval, start: start, phase: 0.1)
        var late = PollBeat(interval: interval, start: start, phase: 0.7)
        let together = start + .seconds(9)
        #expect(early.next(after: together) == start + .milliseconds(10200))
        #expect(late.next(after: together) == start + .milliseconds(9400))
    }

    @Test func everyQuestionComesWithinOneIntervalAndOnTheBeat() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let phase = Double.random(in: 0..<1, using: &random)
            var beat = PollBeat(interval: interval, start: start, phase: phase)
            let first = start + interval * phase
            var now = start
            for _ in 0..<20 {
                let next = beat.next(after: now)
                #expect(next > now && next <= now + interval)
                let beats = first.duration(to: next) / interval
                #expect(abs(beats - beats.rounded()) < 1e-6)
                // The answer comes back anywhere from at once to three intervals later.
                now = next + interval * Double.random(in: 0..<3, using: &random)
            }
        }
    }
}
