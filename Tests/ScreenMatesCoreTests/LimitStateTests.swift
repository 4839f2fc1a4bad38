import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct LimitStateTests {
    @Test(arguments: [
        (0, LimitState.under), (5, .under), (6, .warning), (7, .warning), (8, .critical), (9, .over), (20, .over),
    ])
    func boundariesForGoalEight(_ blocks: Int, _ state: LimitState) {
        #expect(LimitState(blocksUsed: blocks, goal: 8) == state)
        #expect(DailyProgress(blocksUsed: blocks, goal: 8).state == state)
    }

    @Test(arguments: [
        (0, LimitState.under), (7, .under), (8, .warning), (9, .critical), (10, .critical), (11, .over),
    ])
    func boundariesForGoalTen(_ blocks: Int, _ state: LimitState) {
        #expect(LimitState(blocksUsed: blocks, goal: 10) == state)
        #expect(DailyProgress(blocksUsed: blocks, goal: 10).state == state)
    }

    @Test func smallGoals() {
        #expect(LimitState(blocksUsed: 0, goal: 1) == .under)
        #expect(LimitState(blocksUsed: 1, goal: 1) == .critical)
        #expect(LimitState(blocksUsed: 2, goal: 1) == .over)
        #expect(LimitState(blocksUsed: 2, goal: 4) == .under)
        #expect(LimitState(blocksUsed: 3, goal: 4) == .warning)
        #expect(LimitState(blocksUsed: 4, goal: 4) == .critical)
        // 74 of 100 is under, 75 is warning, 89 warning, 90 critical, 100 still critical.
        #expect(LimitState(blocksUsed: 74, goal: 100) == .under)
        #expect(LimitState(blocksUsed: 75, goal: 100) == .warning)
        #expect(LimitState(blocksUsed: 89, goal: 100) == .warning)
        #expect(LimitState(blocksUsed: 90, goal: 100) == .critical)
        #expect(LimitState(blocksUsed: 100, goal: 100) == .critical)
        #expect(LimitState(blocksUsed: 101, goal: 100) == .over)
    }

    @Test func statesAreOrdered() {
        #expect(LimitState.allCases == [.under, .warning, .critical, .over])
        #expect(LimitState.under < .warning)
        #expect(LimitState.warning < .critical)
        #expect(LimitState.critical < .over)
        #expect(!(LimitState.over < .under))
        #expect(LimitState.allCases.sorted() == LimitState.allCases)
    }

    @Test func stateIsMonotonicInBlocks() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...96), Gen.int(in: 0...200)) { goal, blocks in
            let here = LimitState(blocksUsed: blocks, goal: goal)
            let next = LimitState(blocksUsed: blocks + 1, goal: goal)
            #expect(here <= next, "goal \(goal): \(blocks) → \(here), \(blocks + 1) → \(next)")
        }
    }

    @Test func everyGoalWalksThroughTheStatesInOrder() {
        for goal in 1...96 {
            let states = (0...goal + 2).map { LimitState(blocksUsed: $0, goal: goal) }
            #expect(states == states.sorted(), "goal \(goal)")
            #expect(states.first == .under)
            #expect(states[goal] == .critical, "exactly at the goal is critical, not over")
            #expect(states[goal + 1] == .over)
        }
    }

    @Test func stateMatchesTheSpecPercentages() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...96), Gen.int(in: 0...200)) { goal, blocks in
            let state = LimitState(blocksUsed: blocks, goal: goal)
            // Exact rational comparisons: blocks/goal against 3/4, 9/10 and 1.
            let expected: LimitState =
                if blocks > goal {
                    .over
                } else if blocks * 10 >= goal * 9 {
                    .critical
                } else if blocks * 4 >= goal * 3 {
                    .warning
                } else {
                    .under
                }
            #expect(state == expected)
            // The percent shown agrees with the state: 75 % shown means at least warning.
            let percent = DailyProgress(blocksUsed: blocks, goal: goal).percent
            if blocks <= goal {
                #expect((percent >= 75) == (state >= .warning), "\(blocks)/\(goal) = \(percent) % is \(state)")
                #expect((percent >= 90) == (state >= .critical), "\(blocks)/\(goal) = \(percent) % is \(state)")
            }
        }
    }

    // MARK: DailyProgress

    @Test func percentRoundsDown() {
        #expect(DailyProgress(blocksUsed: 749, goal: 1000).percent == 74)
        #expect(DailyProgress(blocksUsed: 2, goal: 3).percent == 66)
        #expect(DailyProgress(blocksUsed: 3, goal: 4).percent == 75)
        #expect(DailyProgress(blocksUsed: 8, goal: 8).percent == 100)
        #expect(DailyProgress(blocksUsed: 9, goal: 8).percent == 112)
        #expect(DailyProgress(blocksUsed: 0, goal: 8).percent == 0)
    }

    @Test func percentNeverRoundsUp() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...1000), Gen.int(in: 0...2000)) { goal, blocks in
            let percent = DailyProgress(blocksUsed: blocks, goal: goal).percent
            #expect(percent * goal <= blocks * 100)
            #expect(blocks * 100 < (percent + 1) * goal)
        }
    }

    @Test func blocksLeftAndOver() {
        let under = DailyProgress(blocksUsed: 5, goal: 8)
        #expect(under.blocksLeft == 3)
        #expect(under.blocksOver == 0)
        #expect(under.fraction == 0.625)
        let at = DailyProgress(blocksUsed: 8, goal: 8)
        #expect(at.blocksLeft == 0)
        #expect(at.blocksOver == 0)
        let over = DailyProgress(blocksUsed: 11, goal: 8)
        #expect(over.blocksLeft == 0)
        #expect(over.blocksOver == 3)
        #expect(over.fraction == 1.375)
    }

    @Test func goalBelowOneIsTreatedAsOne() {
        let progress = DailyProgress(blocksUsed: 1, goal: 0)
        #expect(progress.goal == 1)
        #expect(progress.state == .critical)
        #expect(DailyProgress(blocksUsed: 0, goal: -3).state == .under)
    }
}
