import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

/// The weekly settlement's part of the contract (seed 002): weeks of 2021, long closed by any
/// clock a server may hold them to, with missing, late and duplicated days.
extension GroupStoreContract {
    // MARK: - The weekly settlement

    static func settlementRulesAreSetByMembers(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: ana, now: noon(monday))
        #expect(try await store.settlementRules(code: group.code) == SettlementSchedule(rules: .standard))
        let sunday = SettlementRules(weekStart: 7, keptDayCoins: 3, overDayCoins: 0, missingDays: .worstCase)
        let mark = try await store.changeMark(code: group.code)
        // Ana is the group's only member: her rules hold at once.
        #expect(
            try await store.setSettlementRules(sunday, code: group.code, userID: ana.userID, now: noon(monday)) == nil)
        #expect(try await store.changeMark(code: group.code) > mark)
        #expect(try await store.settlementRules(code: group.code) == SettlementSchedule(rules: sunday))
        await expectError(.notAMember(code: group.code)) {
            try await store.setSettlementRules(.standard, code: group.code, userID: bo.userID, now: noon(monday))
        }
        await expectError(.invalidValue("Coins for a kept day or a day over the limit are 0 to 1000.")) {
            try await store.setSettlementRules(
                SettlementRules(weekStart: 1, keptDayCoins: 1001, overDayCoins: 0, missingDays: .pending),
                code: group.code, userID: ana.userID, now: noon(monday))
        }
        await expectError(.unknownCode(unusedCode)) { _ = try await store.settlementRules(code: unusedCode) }

        // With bo in the group, new rates wait for the first week begun nowhere on Earth: at noon
        // UTC on Tuesday 2 March it is Wednesday at UTC+14, in the week from Sunday 28 February.
        _ = try await store.join(code: group.code, member: bo, now: noon(monday, plus: 60))
        var harsh = sunday
        harsh.keptDayCoins = 9
        harsh.overDayCoins = 1000
        let nextWeek = monday.adding(days: 6)
        let tuesday = noon(monday.adding(days: 1))
        #expect(
            try await store.setSettlementRules(harsh, code: group.code, userID: bo.userID, now: tuesday) == nextWeek)
        #expect(
            try await store.settlementRules(code: group.code)
                == SettlementSchedule(rules: sunday, changes: [SettlementRulesChange(from: nextWeek, rules: harsh)]))
        // Set back before then: nothing is left to change.
        #expect(
            try await store.setSettlementRules(sunday, code: group.code, userID: ana.userID, now: tuesday) == nextWeek)
        #expect(try await store.settlementRules(code: group.code) == SettlementSchedule(rules: sunday))
        try await store.setSettlementRules(harsh, code: group.code, userID: bo.userID, now: tuesday)

        // Each week is settled by the rules it started with: ana keeps every day, bo sends none.
        try await store.upsertDayTotals(
            (0..<13).map { day(ana.userID, monday.adding(days: $0), vice: 1) }, code: group.code)
        let closing = monday.adding(days: 13)
        try await store.settleWeeks(code: group.code, today: closing, now: noon(closing))
        let results = try await store.weekResults(code: group.code, weeks: monday.adding(days: -7)...closing)
        func coins(_ userID: UserID, _ week: LocalDate) -> Int? {
            results.first { $0.userID == userID && $0.week == week }?.coins
        }
        let firstWeek = monday.adding(days: -1)
        #expect(coins(ana.userID, firstWeek) == 6 * 3 && coins(bo.userID, firstWeek) == 0)
        #expect(coins(ana.userID, nextWeek) == 7 * 9 && coins(bo.userID, nextWeek) == -7 * 1000)
        // The change has been reached: it is the group's own now.
        #expect(try await store.settlementRules(code: group.code) == SettlementSchedule(rules: harsh))

        // Once a week is settled, the week start may not change.
        var rates = harsh
        rates.weekStart = 1
        await expectError(.invalidValue(GroupStoreRules.weekStartFixed)) {
            try await store.setSettlementRules(rates, code: group.code, userID: ana.userID, now: noon(closing))
        }
    }

    static func pendingWeeksWaitForTheirDays(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await settlingGroup(in: store)
        let week = (0..<7).map { monday.adding(days: $0) }
        // Ana: five days kept, two over. Bo: five days, two missing (Wednesday and Sunday).
        try await store.upsertDayTotals(
            week.enumerated().map { day(ana.userID, $1, vice: $0 < 5 ? 8 : 9) }
                + week.enumerated().filter { ![2, 6].contains($0.offset) }.map { day(bo.userID, $1, vice: 1) },
            code: group.code)
        // Not closed on its Sunday.
        #expect(try await store.settleWeeks(code: group.code, today: week[6], now: noon(week[6])) == 0)
        #expect(try await store.weekResults(code: group.code, weeks: monday...monday).isEmpty)
        let closing = monday.adding(days: 7)
        let mark = try await store.changeMark(code: group.code)
        #expect(try await store.settleWeeks(code: group.code, today: closing, now: noon(closing)) == 1)
        #expect(try await store.changeMark(code: group.code) > mark)
        let first = try await store.weekResults(code: group.code, weeks: monday...monday)
        #expect(
            first == [
                WeekResult(
                    userID: ana.userID, week: monday, status: .settled,
                    tally: WeekTally(keptDays: 5, overDays: 2, missingDays: 0), coins: 5 * 5 - 2 * 10, rule: .pending,
                    settledAt: noon(closing)),
                WeekResult(
                    userID: bo.userID, week: monday, status: .pending,
                    tally: WeekTally(keptDays: 5, overDays: 0, missingDays: 2), coins: 0, rule: .pending,
                    settledAt: nil),
            ])
        // Settling again, by anyone, changes nothing (the mark included).
        let settledMark = try await store.changeMark(code: group.code)
        #expect(try await store.settleWeeks(code: group.code, today: closing, now: noon(closing, plus: 60)) == 0)
        #expect(try await store.weekResults(code: group.code, weeks: monday...monday) == first)
        #expect(try await store.changeMark(code: group.code) == settledMark)
        // One late day: still pending, its count moves. The last one: settled, with its penalty.
        try await store.upsertDayTotals([day(bo.userID, week[2], vice: 12)], code: group.code)
        #expect(try await store.settleWeeks(code: group.code, today: closing, now: noon(closing, plus: 120)) == 0)
        #expect(
            try await store.weekResults(code: group.code, weeks: monday...monday).last?.tally
                == WeekTally(keptDays: 5, overDays: 1, missingDays: 1))
        try await store.upsertDayTotals([day(bo.userID, week[6], vice: 0)], code: group.code)
        let later = closing.adding(days: 9)
        #expect(try await store.settleWeeks(code: group.code, today: later, now: noon(later)) == 1)
        let results = try await store.weekResults(code: group.code, weeks: monday...later)
        #expect(
            results.first { $0.userID == bo.userID && $0.week == monday }
                == WeekResult(
                    userID: bo.userID, week: monday, status: .settled,
                    tally: WeekTally(keptDays: 6, overDays: 1, missingDays: 0), coins: 6 * 5 - 10, rule: .pending,
                    settledAt: noon(later)))
        // The next week had no days at all: pending for both.
        #expect(results.filter { $0.week == closing }.map(\.status) == [.pending, .pending])
        // A duplicated or newer total for a settled day changes no settled result.
        try await store.upsertDayTotals([day(ana.userID, week[0], vice: 30, version: 2)], code: group.code)
        #expect(try await store.settleWeeks(code: group.code, today: later, now: noon(later, plus: 60)) == 0)
        #expect(try await store.weekResults(code: group.code, weeks: monday...monday).first == first.first)
        await expectError(.unknownCode(unusedCode)) {
            _ = try await store.settleWeeks(code: unusedCode, today: later, now: noon(later))
        }
    }

    static func worstCaseChargesAtOnce(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let rules = SettlementRules(weekStart: 1, keptDayCoins: 4, overDayCoins: 6, missingDays: .worstCase)
        let group = try await settlingGroup(in: store, rules: rules)
        try await store.upsertDayTotals(
            (0..<3).map { day(bo.userID, monday.adding(days: $0), vice: $0 == 0 ? 9 : 2) }, code: group.code)
        let closing = monday.adding(days: 7)
        #expect(try await store.settleWeeks(code: group.code, today: closing, now: noon(closing)) == 2)
        let charged = try await store.weekResults(code: group.code, weeks: monday...monday)
        #expect(
            charged.map(\.coins) == [-7 * 6, 2 * 4 - (1 + 4) * 6],
            "ana sent nothing: seven days charged; bo: two kept, one over, four missing")
        #expect(charged.allSatisfy { $0.status == .settled && $0.rule == .worstCase })
        // Her days arrive late: no adjustment.
        try await store.upsertDayTotals(
            (0..<7).map { day(ana.userID, monday.adding(days: $0), vice: 0) }, code: group.code)
        #expect(try await store.settleWeeks(code: group.code, today: closing, now: noon(closing, plus: 60)) == 0)
        #expect(try await store.weekResults(code: group.code, weeks: monday...monday) == charged)
    }

    static func aLateJoinerIsSettledFromTheirDay(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: ana, now: noon(monday))
        let thursday = monday.adding(days: 3)
        _ = try await store.join(code: group.code, member: bo, now: noon(thursday))
        try await store.upsertDayTotals(
            (3..<7).map { day(bo.userID, monday.adding(days: $0), vice: 1) }
                + (0..<7).map { day(ana.userID, monday.adding(days: $0), vice: 1) }, code: group.code)
        let closing = monday.adding(days: 7)
        #expect(try await store.settleWeeks(code: group.code, today: closing, now: noon(closing)) == 2)
        let results = try await store.weekResults(code: group.code, weeks: monday...monday)
        #expect(results.map(\.tally.keptDays) == [7, 4])
        #expect(results.map(\.coins) == [35, 20])
        // A member who joins after a week closed has no part in it.
        let cy = profile("cy234567", "cy")
        _ = try await store.join(code: group.code, member: cy, now: noon(closing.adding(days: 1)))
        #expect(try await store.settleWeeks(code: group.code, today: closing.adding(days: 1), now: noon(closing)) == 0)
        #expect(try await store.weekResults(code: group.code, weeks: monday...monday).count == 2)
    }

    static func settlingAtOnceIsOnce(_ makeStores: SharedGroupStoreFactory) async throws {
        let (first, second) = try await makeStores()
        let group = try await settlingGroup(in: first)
        try await first.upsertDayTotals(
            (0..<7).flatMap {
                [day(ana.userID, monday.adding(days: $0), vice: 1), day(bo.userID, monday.adding(days: $0), vice: 9)]
            },
            code: group.code)
        let today = monday.adding(days: 7 * 4)
        async let one = first.settleWeeks(code: group.code, today: today, now: noon(today))
        async let two = second.settleWeeks(code: group.code, today: today, now: noon(today))
        let settled = try await one + two
        // The first week is final for both members; the three after it wait for their days.
        #expect(settled == 2)
        let results = try await first.weekResults(code: group.code, weeks: monday...today)
        #expect(results.count == 8)
        #expect(results.filter { $0.status == .settled }.map(\.coins) == [35, -70])
    }

    static func oldDayTotalsGoOnceNoReadAsksForThem(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        // A group from 2021-01-04 (a Monday): eleven weeks of days for ana; bo's first week lacks
        // its Wednesday, so his result for it stays pending.
        let start = LocalDate(year: 2021, month: 1, day: 4)!
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: ana, now: noon(start))
        _ = try await store.join(code: group.code, member: bo, now: noon(start, plus: 60))
        let days = (0..<77).map { start.adding(days: $0) }
        let wednesday = start.adding(days: 2)
        try await store.upsertDayTotals(
            days.map { day(ana.userID, $0, vice: 1) }
                + days.filter { $0 != wednesday }.map { day(bo.userID, $0, vice: 2) },
            code: group.code)
        // Settled on Monday 2021-03-22: the day totals kept start on 2021-02-01.
        let today = start.adding(days: 77)
        let kept = GroupStoreRules.retainedFrom(today: today)
        #expect(kept == LocalDate(year: 2021, month: 2, day: 1))
        let recent = kept...today
        let before = try await store.dayTotals(code: group.code, days: recent)
        let sums = try await store.blockSums(code: group.code, days: today.startOfMonth...today)
        let marks = try await store.changeMarks(code: group.code)
        #expect(try await store.settleWeeks(code: group.code, today: today, now: noon(today)) == 21)
        let held = try await store.dayTotals(code: group.code, days: start...today)
        #expect(held.filter { $0.date >= kept } == before, "every day of this month and the last is kept")
        #expect(
            held.filter { $0.date < kept }.map(\.date)
                == (0..<7).map { start.adding(days: $0) }.filter { $0 != wednesday },
            "of the older days, only bo's pending week's are kept")
        #expect(held.filter { $0.date < kept }.allSatisfy { $0.userID == bo.userID })
        #expect(try await store.blockSums(code: group.code, days: today.startOfMonth...today) == sums)
        // Nothing a reader sees changed: a reader from before the settlement still catches up.
        #expect(try await store.changeMarks(code: group.code).canCatchUp(from: marks.mark))
        // Every result stands: the weeks settled before their days went are not counted again.
        let results = try await store.weekResults(code: group.code, weeks: start...today)
        #expect(results.filter { $0.status == .settled }.count == 21)
        #expect(try await store.settleWeeks(code: group.code, today: today, now: noon(today, plus: 60)) == 0)
        #expect(try await store.weekResults(code: group.code, weeks: start...today) == results)

        // Bo's Wednesday arrives: his week is settled with it, and its days go on the next day.
        try await store.upsertDayTotals([day(bo.userID, wednesday, vice: 9)], code: group.code)
        #expect(try await store.settleWeeks(code: group.code, today: today, now: noon(today, plus: 120)) == 1)
        let first = try await store.weekResults(code: group.code, weeks: start...start)
        #expect(
            first.first { $0.userID == bo.userID }?.tally == WeekTally(keptDays: 6, overDays: 1, missingDays: 0))
        let tomorrow = today.adding(days: 1)
        #expect(try await store.settleWeeks(code: group.code, today: tomorrow, now: noon(tomorrow)) == 0)
        #expect(try await store.dayTotals(code: group.code, days: start...kept.adding(days: -1)).isEmpty)
        #expect(try await store.dayTotals(code: group.code, days: recent) == before)
        #expect(try await store.weekResults(code: group.code, weeks: start...start) == first)
    }

    /// A challenge that ended before the month before goes at a settlement, with its
    /// participants, its removal marked; one that ended within it stays as it was.
    static func oldChallengesGoWithTheirParticipants(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let start = LocalDate(year: 2021, month: 1, day: 4)!
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: ana, now: noon(start))
        _ = try await store.join(code: group.code, member: bo, now: noon(start, plus: 60))
        let later = LocalDate(year: 2021, month: 2, day: 15)!
        try await store.createGroupChallenge(
            challenge("oldweek", firstDay: start, days: 7), code: group.code, creatorID: ana.userID, now: noon(start))
        _ = try await store.joinGroupChallenge(
            id: "oldweek", code: group.code, userID: bo.userID, today: start, now: noon(start, plus: 60))
        try await store.createGroupChallenge(
            challenge("febweek", firstDay: later, days: 7), code: group.code, creatorID: ana.userID, now: noon(later))
        _ = try await store.joinGroupChallenge(
            id: "febweek", code: group.code, userID: bo.userID, today: later, now: noon(later, plus: 60))
        let kept = try await store.groupChallenges(code: group.code).filter { $0.challenge.id == "febweek" }
        #expect(kept.first?.participants.count == 2)
        // Settled on 2021-03-22: what the group keeps starts on 2021-02-01.
        let today = LocalDate(year: 2021, month: 3, day: 22)!
        let marks = try await store.changeMarks(code: group.code)
        _ = try await store.settleWeeks(code: group.code, today: today, now: noon(today))
        #expect(try await store.groupChallenges(code: group.code) == kept)
        #expect(!(try await store.changeMarks(code: group.code).canCatchUp(from: marks.mark)), "the removal is marked")
        // Settled again the next day: nothing more goes.
        let tomorrow = today.adding(days: 1)
        _ = try await store.settleWeeks(code: group.code, today: tomorrow, now: noon(tomorrow))
        #expect(try await store.groupChallenges(code: group.code) == kept)
    }
}
