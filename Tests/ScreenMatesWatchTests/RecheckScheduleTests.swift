import ScreenMatesWatch
import Testing

/// The one schedule of looks after a file notice.
@Suite struct RecheckScheduleTests {
    let start = ContinuousClock.now

    @Test func aNoticeBringsALookAtOnceAndThenOnTheSchedule() {
        var rechecks = RecheckSchedule()
        #expect(rechecks.next == nil)
        rechecks.noticed(at: start)
        for delay in RecheckSchedule.afterNotice {
            #expect(rechecks.next == start + delay)
            let due = rechecks.take(at: start + delay)
            #expect(due)
        }
        #expect(rechecks.next == nil)
        let more = rechecks.take(at: start + .seconds(60))
        #expect(!more, "nothing more without a new notice")
    }

    @Test func aLookNotYetDueIsNotTaken() {
        var rechecks = RecheckSchedule()
        rechecks.noticed(at: start)
        _ = rechecks.take(at: start)
        let early = rechecks.take(at: start + .milliseconds(19))
        #expect(!early)
        #expect(rechecks.count == RecheckSchedule.afterNotice.count - 1)
    }

    @Test func lateLooksAreTakenTogether() {
        var rechecks = RecheckSchedule()
        rechecks.noticed(at: start)
        let late = rechecks.take(at: start + .milliseconds(500))
        #expect(late)
        #expect(rechecks.count == 1, "only the one at a second is left")
    }

    @Test func aNewNoticeStartsTheScheduleAgain() {
        var rechecks = RecheckSchedule()
        rechecks.noticed(at: start)
        _ = rechecks.take(at: start + .milliseconds(500))
        rechecks.noticed(at: start + .seconds(2))
        #expect(rechecks.count == RecheckSchedule.afterNotice.count)
        #expect(rechecks.next == start + .seconds(2))
    }
}
