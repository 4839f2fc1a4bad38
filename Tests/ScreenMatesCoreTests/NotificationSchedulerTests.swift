import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesTestSupport
import Testing

@Suite struct NotificationSchedulerTests {
    static let utc = DayCalendar(timeZone: TimeZone(identifier: "UTC")!)
    static let today = LocalDate(year: 2026, month: 11, day: 21)!
    static let noon = utc.instant(on: today, hour: 12, minute: 0)

    static func input(
        blocks: Int, goal: Int = 8, now: Date = noon, calendar: DayCalendar = utc, today: LocalDate = today,
        mates: [NotificationScheduler.Mate]? = nil, yesterday: DayRecord? = nil, enabled: Bool = true,
        recorded: Set<String> = [], shown: Int = 0
    ) -> NotificationScheduler.Input {
        NotificationScheduler.Input(
            now: now, calendar: calendar, today: today, blocksUsed: blocks, goal: goal, streak: 2,
            yesterday: yesterday, myName: "zoe", mates: mates, enabled: enabled, recordedKeys: recorded,
            shownToday: shown)
    }

    /// Runs the scheduler as a dashboard does: decide, record everything decided, go on.
    struct Run {
        var recorded: Set<String> = []
        var shownToday = 0
        var shown: [Notice] = []

        mutating func step(_ make: (Set<String>, Int) -> NotificationScheduler.Input) {
            let decision = NotificationScheduler.decide(make(recorded, shownToday))
            for notice in decision.deliver {
                if recorded.insert(notice.key).inserted {
                    shown.append(notice)
                    shownToday += 1
                }
            }
            for notice in decision.countAsSent { recorded.insert(notice.key) }
        }
    }

    // MARK: Thresholds

    @Test func eachThresholdOnceInOrderAsBlocksClimb() {
        var run = Run()
        for blocks in 0...12 {
            for _ in 0..<3 { run.step { Self.input(blocks: blocks, recorded: $0, shown: $1) } }
        }
        #expect(run.shown.map(\.kind) == [.threshold(.warning), .threshold(.critical), .threshold(.over)])
        #expect(run.shown.map(\.title) == ["75 % of today's limit", "90 % of today's limit", "Over today's limit"])
    }

    @Test func aJumpPastSeveralShowsOnlyTheHighestAndCountsTheRest() {
        let decision = NotificationScheduler.decide(Self.input(blocks: 10))
        #expect(decision.deliver.map(\.kind) == [.threshold(.over)])
        #expect(Set(decision.countAsSent.map(\.kind)) == [.threshold(.warning), .threshold(.critical)])
    }

    @Test func exactlyAtTheGoalIsCriticalNotOver() {
        let decision = NotificationScheduler.decide(Self.input(blocks: 8))
        #expect(decision.deliver.map(\.kind) == [.threshold(.critical)])
    }

    @Test func offMeansCountedAsSentNeverShownLater() {
        var run = Run()
        run.step { Self.input(blocks: 7, enabled: false, recorded: $0, shown: $1) }
        #expect(run.shown.isEmpty)
        run.step { Self.input(blocks: 7, enabled: true, recorded: $0, shown: $1) }
        #expect(run.shown.isEmpty, "what was due while off does not arrive late")
    }

    /// Whatever order blocks arrive in (they only ever rise within a day) and however often the
    /// scheduler runs, a notice is shown at most once, thresholds rise, and the highest one
    /// reached is shown unless a higher one was already.
    @Test func neverTwiceAndOnlyRising() async {
        let steps = Gen.int(in: 0...4).array(of: 1...30)
        await propertyCheck(count: 300, input: steps, Gen.int(in: 1...12)) { increments, goal in
            var run = Run()
            var blocks = 0
            for increment in increments {
                blocks += increment
                run.step { Self.input(blocks: blocks, goal: goal, recorded: $0, shown: $1) }
                run.step { Self.input(blocks: blocks, goal: goal, recorded: $0, shown: $1) }
            }
            #expect(Set(run.shown.map(\.key)).count == run.shown.count)
            let levels = run.shown.compactMap { notice -> LimitState? in
                if case .threshold(let state) = notice.kind { return state }
                return nil
            }
            #expect(levels == levels.sorted())
            let reached = LimitState(blocksUsed: blocks, goal: goal)
            if reached > .under { #expect(levels.last == reached) } else { #expect(levels.isEmpty) }
        }
    }

    // MARK: Budget, reset, group

    @Test func theDailyBudgetCapsWhatIsShown() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...20), Gen.int(in: 0...14)) { alreadyShown, mateCount in
            let mates = (0..<mateCount).map {
                NotificationScheduler.Mate(userID: UserID("m\($0)"), name: "mate\($0)", blocksToday: 9 + $0)
            }
            var run = Run()
            run.shownToday = alreadyShown
            for _ in 0..<6 {
                run.step { Self.input(blocks: 10, mates: mates, recorded: $0, shown: $1) }
            }
            #expect(run.shownToday <= max(alreadyShown, NotificationScheduler.dailyBudget))
            #expect(run.shown.count <= max(0, NotificationScheduler.dailyBudget - alreadyShown))
        }
    }

    /// However many mates go over first, they leave room for the user's own notices: each
    /// threshold the user then reaches is shown, climbing or in one jump.
    @Test func matesGoingOverNeverSilenceTheUsersOwnNotices() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...60), Gen.bool) { mateCount, climbing in
            let mates = (0..<mateCount).map {
                NotificationScheduler.Mate(userID: UserID("m\($0)"), name: "mate\($0)", blocksToday: 9 + $0 % 4)
            }
            var run = Run()
            for _ in 0..<(mateCount / 3 + 2) {
                run.step { Self.input(blocks: 0, mates: mates, recorded: $0, shown: $1) }
            }
            for blocks in climbing ? Array(0...10) : [10] {
                run.step { Self.input(blocks: blocks, mates: mates, recorded: $0, shown: $1) }
            }
            let own = run.shown.compactMap { notice -> LimitState? in
                if case .threshold(let state) = notice.kind { return state }
                return nil
            }
            #expect(own == (climbing ? [.warning, .critical, .over] : [.over]))
            #expect(
                run.shown.filter(\.isAboutOthers).count
                    <= NotificationScheduler.dailyBudget - NotificationScheduler.ownReserve)
        }
    }

    @Test func atMostThreeMatesAtOnceFurthestOverFirst() {
        let mates =
            (1...5).map { NotificationScheduler.Mate(userID: UserID("m\($0)"), name: "mate\($0)", blocksToday: 8 + $0) }
            + [NotificationScheduler.Mate(userID: UserID("idle"), name: "idle", blocksToday: nil)]
        let decision = NotificationScheduler.decide(Self.input(blocks: 0, mates: mates))
        #expect(
            decision.deliver.map(\.title) == [
                "mate5 went over the limit", "mate4 went over the limit", "mate3 went over the limit",
            ])
        #expect(decision.countAsSent.count == 2)
    }

    @Test func theResetNoticeNamesYesterdayOnce() {
        let yesterday = DayRecord(
            date: Self.today.adding(days: -1), viceBlocks: 5, productiveBlocks: 0, goalBlocks: 8, earnedSeconds: 0,
            spentSeconds: 0, endingBalanceSeconds: 0, overdraftSeconds: 0, streakAfter: 2)
        var run = Run()
        for _ in 0..<3 { run.step { Self.input(blocks: 0, yesterday: yesterday, recorded: $0, shown: $1) } }
        #expect(run.shown.map(\.kind) == [.dailyReset])
        #expect(run.shown.first?.body == "Yesterday: 5 of 8 blocks, within the limit. Streak: 2 days.")
    }

    @Test func theEveningSummaryAtTwentyTwoNamesWhoIsFurthestOver() {
        let mates = [
            NotificationScheduler.Mate(userID: UserID("a"), name: "ana", blocksToday: 11),
            NotificationScheduler.Mate(userID: UserID("b"), name: "bo", blocksToday: 14),
        ]
        let before = NotificationScheduler.decide(
            Self.input(blocks: 3, now: Self.utc.instant(on: Self.today, hour: 21, minute: 59), mates: mates))
        #expect(!before.deliver.contains { $0.kind == .eveningSummary })
        #expect(before.nextDue == Self.utc.instant(on: Self.today, hour: 22, minute: 0))
        let after = NotificationScheduler.decide(
            Self.input(
                blocks: 3, now: Self.utc.instant(on: Self.today, hour: 22, minute: 0), mates: mates,
                recorded: [
                    "\(Self.today) mate-over-a", "\(Self.today) mate-over-b",
                ]))
        #expect(after.deliver.map(\.body) == ["bo is furthest over: 14 of 8 blocks."])
    }

    // MARK: Next due

    /// The next time-driven notice is due at 22:00 (in a group, before it) or at the next day
    /// start — a real instant, across DST changes and with a 4 am day start.
    @Test func nextDueIsTheEveningOrTheNextDayStart() async {
        let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC"].map {
            TimeZone(identifier: $0)!
        }
        let start = Date(timeIntervalSince1970: 1_792_000_000)  // October 2026: DST ends in Europe and America
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...(60 * 24 * 60)), Gen.element(of: zones), Gen.element(of: [0, 4]),
            Gen.bool
        ) { minutes, zone, hour, inGroup in
            let calendar = DayCalendar(timeZone: zone!, dayStartHour: hour!)
            let now = start.addingTimeInterval(Double(minutes) * 60)
            let today = calendar.day(containing: now)
            let decision = NotificationScheduler.decide(
                Self.input(blocks: 0, now: now, calendar: calendar, today: today, mates: inGroup ? [] : nil))
            let next = try #require(decision.nextDue)
            #expect(next > now)
            let reset = calendar.nextReset(after: now)
            let evening = calendar.instant(on: today, hour: 22, minute: 0)
            if inGroup && now < evening && evening < reset {
                #expect(next == evening)
            } else {
                #expect(next == reset)
                #expect(calendar.day(containing: next) == today.adding(days: 1))
            }
        }
    }
}
