import ScreenMatesCore
import Testing

struct RetryBackoffTests {
    let backoff = RetryBackoff(first: .milliseconds(50), longest: .seconds(5))

    @Test func theBackOffDoublesFromTheFirstUpToTheLongest() {
        #expect(backoff.ceiling(afterFailures: 0) == .milliseconds(50))
        #expect(backoff.ceiling(afterFailures: 1) == .milliseconds(50))
        #expect(backoff.ceiling(afterFailures: 2) == .milliseconds(100))
        #expect(backoff.ceiling(afterFailures: 7) == .milliseconds(3200))
        #expect(backoff.ceiling(afterFailures: 8) == .seconds(5))
        #expect(backoff.ceiling(afterFailures: Int.max) == .seconds(5))
    }

    @Test(arguments: [1, 2, 5, 8, 100])
    func theWaitIsBetweenHalfTheBackOffAndAllOfIt(failures: Int) {
        let ceiling = backoff.ceiling(afterFailures: failures)
        #expect(backoff.delay(afterFailures: failures, draw: 0) == ceiling / 2)
        #expect(backoff.delay(afterFailures: failures, draw: 1) == ceiling)
        #expect(backoff.delay(afterFailures: failures, draw: -3) == ceiling / 2)
        #expect(backoff.delay(afterFailures: failures, draw: .nan) >= ceiling / 2)
        for _ in 0..<200 {
            let wait = backoff.delay(afterFailures: failures)
            #expect(wait >= ceiling / 2 && wait <= ceiling)
        }
    }

    /// Members who failed together come back spread over the second half of the back-off.
    @Test func manyMembersFailingTogetherDoNotComeBackTogether() {
        let waits = Set((0..<1000).map { _ in backoff.delay(afterFailures: 8) })
        #expect(waits.count > 900)
        #expect(waits.min()! < .milliseconds(2600) && waits.max()! > .milliseconds(4900))
    }

    @Test func aLongestShorterThanTheFirstIsTheFirst() {
        let odd = RetryBackoff(first: .seconds(2), longest: .seconds(1))
        #expect(odd.ceiling(afterFailures: 5) == .seconds(2))
    }
}
