import Foundation
import ScreenMatesCore
import ScreenMatesHomeTestSupport
import ScreenMatesStore
import Testing

@testable import ScreenMatesHome

/// On each of a member's machines the person's day is the sum of all of them: what the group link
/// kept of the other machines (`LocalStore.keepOtherMachineDays`) counts in today's progress,
/// states and balance, in each finished day and the streak, and in the week, while what this
/// machine reports stays its own. Without a group a home is one machine.
@Suite struct OtherMachinesFiguresTests {
    static let code = try! GroupCode(validating: "K7Q2XM")

    /// ana in a group, tracked since Monday 2026-11-16, on Saturday 2026-11-21 at 14:00 in Lisbon.
    static func scenario() throws -> Scenario {
        let scenario = try Scenario(
            timeZone: "Europe/Lisbon", start: "2026-11-21T14:00:00", trackingStart: "2026-11-16", goal: 8)
        try scenario.store.setGroup(GroupMembership(code: code, dailyGoalBlocks: 8))
        return scenario
    }

    static func day(_ text: String) -> LocalDate { LocalDate(iso8601: text)! }

    static func other(_ machine: String, _ date: String, _ blocks: Int, goal: Int = 8) -> OtherMachineDay {
        OtherMachineDay(machine: machine, date: day(date), viceBlocks: blocks, goalBlocks: goal)
    }

    @Test func todayIsTheSumOfTheMachinesAndWhatThisMachineReportsStaysItsOwn() throws {
        let scenario = try Self.scenario()
        try scenario.vice(3, endingAt: "2026-11-21T13:30:00")
        let feed = try scenario.read()
        #expect(feed.summary.progress.blocksUsed == 3)
        #expect(feed.summary.state == .under)

        // ana's desk used 4 today: 7 of 8 is 87 %, a warning.
        let changed = try scenario.store.keepOtherMachineDays(
            [Self.other("desk", "2026-11-21", 4, goal: 0)], replacing: Self.day("2026-11-21")...Self.day("2026-11-21"))
        #expect(changed)
        #expect(try feed.read(), "the figures see the other machines changed")
        #expect(feed.summary.progress.blocksUsed == 7)
        #expect(feed.summary.otherMachinesBlocks == 4)
        #expect(feed.summary.state == .warning)
        #expect(feed.ledger.viceBlocks == 3, "this machine's own day")
        #expect(feed.figures.profileDraft?.blocksToday == 3, "the group is told this machine's blocks; it adds up")
        // Their time spends from the balance: 7 blocks of 15 minutes.
        #expect(feed.summary.ledger.spentSeconds == 7 * 900)
        #expect(feed.summary.ledger.overdraftSeconds == 7 * 900)
        #expect(feed.figures.blocks(in: .week) == 7)

        // The same again changes nothing.
        #expect(
            try !scenario.store.keepOtherMachineDays(
                [Self.other("desk", "2026-11-21", 4, goal: 0)],
                replacing: Self.day("2026-11-21")...Self.day("2026-11-21")))
        #expect(try !feed.read())
    }

    @Test func theBalanceIsWhatAllTheMachinesEarnedLessWhatTheySpent() throws {
        let scenario = try Self.scenario()
        try scenario.vice(3, endingAt: "2026-11-21T13:30:00")
        try scenario.store.keepOtherMachineDays(
            [
                OtherMachineDay(
                    machine: "desk", date: Self.day("2026-11-21"), viceBlocks: 2, goalBlocks: 8, productiveBlocks: 4)
            ], replacing: Self.day("2026-11-21")...Self.day("2026-11-21"))
        let feed = try scenario.read()
        let member = feed.summary.ledger
        // Here: 3 vice blocks. The desk: an hour earned, 30 minutes spent. The day whole: an hour
        // earned, 75 minutes spent, 15 minutes of overdraft.
        #expect(member.earnedSeconds == 3600)
        #expect(member.spentSeconds == 5 * 900)
        #expect(member.balanceSeconds == 0)
        #expect(member.overdraftSeconds == 900)
        #expect(member.productiveBlocks == 4 && member.viceBlocks == 5)
        #expect(feed.ledger.balanceSeconds == 0 && feed.ledger.productiveBlocks == 0, "this machine's own")
        #expect(feed.figures.profileDraft?.productiveToday == 0)
    }

    @Test func aDayOnlyTheOtherMachineUsedBreaksTheStreakEverywhere() throws {
        let scenario = try Self.scenario()
        try scenario.vice(2, endingAt: "2026-11-17T12:00:00")
        try scenario.vice(5, endingAt: "2026-11-19T12:00:00")
        var feed = try scenario.read()
        #expect(feed.summary.streak.current == 5)

        // The desk: 6 on Thursday (5 + 6 = 11, over 8), and 10 on Friday, which the laptop never used.
        try scenario.store.keepOtherMachineDays(
            [Self.other("desk", "2026-11-19", 6), Self.other("desk", "2026-11-20", 10)],
            replacing: Self.day("2026-10-01")...Self.day("2026-11-21"))
        feed = try scenario.read()
        let byDay = Dictionary(uniqueKeysWithValues: feed.history.map { ($0.date, $0) })
        #expect(byDay[Self.day("2026-11-17")]?.viceBlocks == 2)
        #expect(byDay[Self.day("2026-11-19")]?.viceBlocks == 11)
        #expect(byDay[Self.day("2026-11-19")]?.keptLimit == false)
        let friday = try #require(byDay[Self.day("2026-11-20")])
        #expect(friday.viceBlocks == 10 && friday.goalBlocks == 8 && !friday.keptLimit)
        #expect(feed.summary.streak.current == 0)
        #expect(feed.summary.streak.best == 3)
        #expect(feed.figures.blocks(in: .week) == 2 + 11 + 10)
        // What this machine archived and sends is still its own: the group adds it up.
        #expect(scenario.history.first { $0.date == Self.day("2026-11-19") }?.viceBlocks == 5)
        let unsent = try scenario.store.unsyncedDays()
        #expect(unsent.first { $0.date == Self.day("2026-11-19") }?.viceBlocks == 5)
        #expect(unsent.first { $0.date == Self.day("2026-11-20") }?.viceBlocks == 0)
    }

    @Test func aDayBeforeThisMachineArchivedAnyIsTheOtherMachinesAndNothingToSend() {
        var settings = UserSettings(userID: UserID("abcd2345"))
        settings.rules.dailyGoalBlocks = 6
        let own = [DayRecord(date: Self.day("2026-11-19"), ledger: DailyLedger(), goalBlocks: 8)]
        let days = DayRecord.memberDays(
            own,
            otherMachines: [
                Self.day("2026-11-18"): OtherMachinesTotal(viceBlocks: 7, goalBlocks: 0),
                Self.day("2026-11-19"): OtherMachinesTotal(viceBlocks: 2, goalBlocks: 10, productiveBlocks: 4),
                Self.day("2026-11-14"): OtherMachinesTotal(viceBlocks: 1, goalBlocks: 8),
                Self.day("2026-11-21"): OtherMachinesTotal(viceBlocks: 1, goalBlocks: 8),
            ], from: Self.day("2026-11-16"), through: Self.day("2026-11-20"), goal: settings.dailyGoalBlocks,
            blockSeconds: settings.rules.blockSeconds, exchangeRate: settings.rules.exchangeRate)
        #expect(
            days.map { $0.date } == [Self.day("2026-11-18"), Self.day("2026-11-19")],
            "only the days tracked and finished")
        #expect(days[0].viceBlocks == 7 && days[0].goalBlocks == 6 && days[0].synced, "a goal of 0 is today's")
        #expect(days[0].spentSeconds == 7 * 15 * 60)
        #expect(days[1].viceBlocks == 2 && days[1].goalBlocks == 10 && !days[1].synced, "the highest goal")
        #expect(days[1].productiveBlocks == 4 && days[1].earnedSeconds == 4 * 15 * 60, "their productive blocks earn")
    }

    @Test func badgesAreEarnedOnTheMembersDays() throws {
        let scenario = try Self.scenario()
        _ = try scenario.read()
        // The desk went over on Tuesday: three days in a row are kept from Wednesday to Friday.
        try scenario.store.keepOtherMachineDays(
            [Self.other("desk", "2026-11-17", 10)], replacing: Self.day("2026-10-01")...Self.day("2026-11-21"))
        _ = try scenario.store.settleChallenges(
            calendar: scenario.feed.calendar, currentGoal: 8, now: scenario.clock.now())
        let badges = Dictionary(uniqueKeysWithValues: try scenario.store.badges().map { ($0.kind, $0.day) })
        #expect(badges[.streak3] == Self.day("2026-11-20"), "not on Wednesday, as this machine alone would say")
        #expect(badges[.firstDayKept] == Self.day("2026-11-16"))
    }

    @Test func daysRestoredFromTheGroupHoldTheSumAlreadyAndAreNotCountedTwice() throws {
        let scenario = try Self.scenario()
        let settings = try #require(try scenario.store.settings())
        _ = try scenario.store.restore(
            RestoredMember(
                userID: settings.userID, displayName: try #require(settings.displayName),
                membership: GroupMembership(code: Self.code, dailyGoalBlocks: 8), version: 1,
                days: [RestoredMember.Day(date: Self.day("2026-11-18"), viceBlocks: 9, goalBlocks: 8)]),
            apps: settings.apps, calendar: scenario.feed.calendar, now: scenario.clock.now())
        try scenario.store.keepOtherMachineDays(
            [Self.other("laptop", "2026-11-18", 9)], replacing: Self.day("2026-10-01")...Self.day("2026-11-21"))
        let feed = try scenario.read()
        #expect(feed.history.first { $0.date == Self.day("2026-11-18") }?.viceBlocks == 9)
    }

    @Test func withoutAGroupAHomeIsOneMachine() throws {
        let scenario = try Self.scenario()
        try scenario.vice(3, endingAt: "2026-11-21T13:30:00")
        try scenario.store.keepOtherMachineDays(
            [Self.other("desk", "2026-11-21", 4), Self.other("desk", "2026-11-20", 12)], replacing: nil)
        var feed = try scenario.read()
        #expect(feed.summary.progress.blocksUsed == 7)

        // Leaving the group forgets the other machines: they were the group's.
        try scenario.store.setGroup(nil)
        feed = try scenario.read()
        #expect(feed.summary.progress.blocksUsed == 3)
        #expect(feed.summary.otherMachinesBlocks == 0)
        #expect(feed.history.allSatisfy { $0.viceBlocks == 0 || $0.date != Self.day("2026-11-20") })
        #expect(try scenario.store.otherMachinesTotals().isEmpty)
    }
}
