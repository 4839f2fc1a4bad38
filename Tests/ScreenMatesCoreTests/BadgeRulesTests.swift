import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// Badges from the history (`BadgeRules`): earned once, on the day their condition first holds.
@Suite struct BadgeRulesTests {
    @Test func badgesComeOnTheDayTheirConditionFirstHolds() {
        let records = (0..<8).map {
            ChallengeJudgeTests.record($0, vice: $0 == 4 ? 9 : 1, productive: 3, streak: $0 < 4 ? $0 + 1 : $0 - 4)
        }
        let earned = BadgeRules.earned(records: records)
        #expect(earned[.firstDayKept] == ChallengeJudgeTests.first)
        #expect(earned[.streak3] == ChallengeJudgeTests.first.adding(days: 2))
        #expect(earned[.streak7] == nil)
        #expect(earned[.halfWeek] == nil, "day 4 was over the limit")
        #expect(earned[.cleanDay] == nil)
        let clean = BadgeRules.earned(
            records: records + [ChallengeJudgeTests.record(9, vice: 0, productive: 2, streak: 5)])
        #expect(clean[.cleanDay] == ChallengeJudgeTests.first.adding(days: 9))
        // Days without usage keep a half-limit run going but end a productive one.
        let sparse = [0, 1, 2, 4, 5, 6, 7].map {
            ChallengeJudgeTests.record($0, vice: 1, productive: 2, streak: $0 + 1)
        }
        let sparseEarned = BadgeRules.earned(records: sparse)
        #expect(sparseEarned[.halfWeek] == ChallengeJudgeTests.first.adding(days: 6))
        #expect(sparseEarned[.productiveWeek] == nil)
        let hard = Challenge(
            id: "h", rule: .dailyBlocks(max: 1, target: .allVice), firstDay: ChallengeJudgeTests.first, days: 7,
            reward: 10,
            penalty: 10)
        let challenges = BadgeRules.earned(
            records: [],
            keptChallenges: [
                (ChallengeJudgeTests.challenge(.streak), ChallengeJudgeTests.first.adding(days: 3)),
                (hard, ChallengeJudgeTests.first.adding(days: 7)),
            ])
        #expect(challenges[.firstChallenge] == ChallengeJudgeTests.first.adding(days: 3))
        #expect(challenges[.hardChallenge] == ChallengeJudgeTests.first.adding(days: 7))
        #expect(challenges[.fiveChallenges] == nil)
    }

    /// A longer history never takes a badge away or moves the day it was earned.
    @Test func aLongerHistoryKeepsEveryBadgeAndItsDay() async {
        let history = Generator<[DayRecord], Shrink.None<[DayRecord]>> { rng in
            var streak = 0
            return (0..<Int.random(in: 0...40, using: &rng)).compactMap { offset in
                guard Int.random(in: 0...5, using: &rng) > 0 else { return nil }
                let vice = Int.random(in: 0...10, using: &rng)
                streak = vice <= 8 ? streak + 1 : 0
                return ChallengeJudgeTests.record(
                    offset, vice: vice, productive: Int.random(in: 0...6, using: &rng), streak: streak)
            }
        }
        await propertyCheck(count: 200, input: history, Gen.int(in: 0...40)) { records, cut in
            let early = BadgeRules.earned(
                records: records.filter { $0.date < ChallengeJudgeTests.first.adding(days: cut) })
            let all = BadgeRules.earned(records: records)
            for (kind, day) in early { #expect(all[kind] == day, "\(kind)") }
        }
    }

    /// Properties 18 and 19: every badge has one category and one difficulty, every category
    /// and difficulty has badges; and however the history grows, each kind is earned once, on a
    /// day of the history.
    @Test func badgesAreCategorisedAndEarnedOnce() async {
        for category in BadgeKind.Category.allCases {
            #expect(BadgeKind.allCases.contains { $0.category == category }, "\(category)")
        }
        for difficulty in BadgeKind.Difficulty.allCases {
            #expect(BadgeKind.allCases.contains { $0.difficulty == difficulty }, "\(difficulty)")
        }
        let history = Generator<[DayRecord], Shrink.None<[DayRecord]>> { rng in
            var streak = 0
            return (0..<Int.random(in: 0...60, using: &rng)).map { offset in
                let vice = Int.random(in: 0...9, using: &rng)
                streak = vice <= 8 ? streak + 1 : 0
                return DayRecord(
                    date: GroupGameTests.first.adding(days: offset), viceBlocks: vice,
                    productiveBlocks: Int.random(in: 0...9, using: &rng), goalBlocks: 8, earnedSeconds: 0,
                    spentSeconds: 0, endingBalanceSeconds: 0, overdraftSeconds: 0, streakAfter: streak)
            }
        }
        await propertyCheck(count: 100, input: history) { records in
            let earned = BadgeRules.earned(records: records + records)
            #expect(earned == BadgeRules.earned(records: records), "a day seen twice earns nothing more")
            let days = Set(records.map(\.date))
            for (_, day) in earned { #expect(days.contains(day)) }
        }
    }
}
