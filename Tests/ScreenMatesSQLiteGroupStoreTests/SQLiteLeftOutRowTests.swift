import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupStoreContract
import ScreenMatesSQLiteGroupStore
import ScreenMatesTestSupport
import Testing

/// Rows a member wrote into the shared file by hand, past the store's checks: each one that
/// cannot be right is left out and named, and the rest of the group still shows.
@Suite struct SQLiteLeftOutRowTests {
    private typealias Contract = GroupStoreContract

    /// A store with ana and bo in one group, and a hostile member's connection to its file.
    private func group() async throws -> (SQLiteGroupStore, Group, HostileMember, Scratch) {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.newGroup(in: store)
        _ = try await store.join(code: group.code, member: Contract.bo, now: Contract.start)
        return (store, group, try HostileMember(path: path), scratch)
    }

    @Test func aMemberRowThatCannotBeRightIsLeftOutNamedAndTheGroupStillShows() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        let planted: [(damage: String, reason: String)] = [
            // The issue's case: a space, which a server allowed, froze everyone's leaderboard.
            ("display_name = 'bo cheats'", "display_name \"bo cheats\": A display name"),
            ("display_name = char(27) || '[2Jevil'", "display_name \"\u{FFFD}[2Jevil\": A display name"),
            ("display_name = ''", "display_name \"\": A display name"),
            ("display_name = 'b' || char(8238) || 'o'", "display_name \"bo\": A display name"),
            ("blocks_today = 'lots'", "blocks_today holds a value of the wrong kind"),
            ("blocks_today = -1", "blocks_today is -1; a day holds 0 to 1440"),
            ("blocks_today = 9223372036854775807", "blocks_today is 9223372036854775807; a day holds 0 to 1440"),
            ("streak = 9223372036854775807", "streak is 9223372036854775807; a streak is 0 to 36525"),
            ("last_updated = 'soon'", "last_updated holds a value of the wrong kind"),
            ("last_active = -9223372036854775808", "last_active is -9223372036854775808 ms, not an instant"),
            ("day = 9223372036854775807", "day is day number 9223372036854775807, outside the years 1 to 9999"),
            ("version = 1.5", "version holds a value of the wrong kind"),
        ]
        for (damage, reason) in planted {
            try hostile.execute("UPDATE member SET \(damage) WHERE user_id = 'bo234567'")
            let (members, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
                try await store.members(code: group.code)
            }
            #expect(members == [Contract.ana], "\(damage)")
            #expect(leftOut.map(\.kind) == [.member], "\(damage)")
            #expect(leftOut.first?.key == "bo234567", "\(damage)")
            #expect(leftOut.first?.reason.hasPrefix(reason) == true, "\(damage): \(leftOut)")
            // The member row back as it was, for the next one.
            try hostile.execute("DELETE FROM member WHERE user_id = 'bo234567'")
            _ = try await store.join(code: group.code, member: Contract.bo, now: Contract.start)
        }
        // A user id that is not one is named by what it holds, made harmless.
        try hostile.execute("UPDATE member SET user_id = 'bo' || char(27) || '[2J' WHERE user_id = 'bo234567'")
        let (members, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.members(code: group.code)
        }
        #expect(members == [Contract.ana])
        #expect(leftOut.map(\.description) == ["member bo\u{FFFD}[2J: user_id \"bo\u{FFFD}[2J\" is not a user id"])
        // Read outside `collecting`, the row is still left out; no one hears of it.
        #expect(try await store.members(code: group.code) == [Contract.ana])
    }

    /// What another member damages stops no one's writes: a member's own row is mended by their
    /// next write, a row whose user id is not one leaves the others' days alone, and a failed
    /// attempt that cannot be read counts for nothing.
    @Test func damageBySomeoneElseStopsNoOnesWrites() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        try hostile.execute(
            "UPDATE member SET blocks_today = 'lots', version = 'v9' WHERE user_id = 'bo234567'",
            "INSERT INTO member VALUES ('\(group.code)', 'x' || char(27), 'x', 'x', 0, 0, 0, NULL, 0, 1, 0, 0)",
            "INSERT INTO failed_attempt VALUES ('bo234567', 'now')",
            "INSERT INTO last_group VALUES ('nobody12', 42)")
        var bo = Contract.bo
        bo.version = 2
        bo.blocksToday = 4
        #expect(try await store.upsertProfile(bo))
        #expect(try await store.members(code: group.code) == [Contract.ana, bo])
        try await store.upsertDayTotals(
            [Contract.day(Contract.bo.userID, Contract.today.adding(days: -1), vice: 2)], code: group.code)
        #expect(
            try await store.dayTotals(code: group.code, days: Contract.today.adding(days: -1)...Contract.today).count
                == 1)
        #expect(try await store.group(code: group.code, userID: Contract.bo.userID, now: Contract.start) != nil)
        await Contract.expectError(
            .invalidValue("User nobody12 has not joined a group in this group store; join one first.")
        ) {
            try await store.upsertProfile(Contract.profile("nobody12", "nobody"))
        }
    }

    @Test func theGroupsOwnRowThatCannotBeRightIsUnusableNamingWhy() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        let code = group.code.value
        for (damage, detail) in [
            ("created_at = 'yesterday'", "group \(code): created_at holds a value of the wrong kind"),
            ("daily_goal_blocks = 0", "group \(code): daily_goal_blocks is 0; a daily goal is 1 to 96"),
            ("daily_goal_blocks = -1", "group \(code): daily_goal_blocks is -1; a daily goal is 1 to 96"),
        ] {
            try hostile.execute("UPDATE group_info SET \(damage)")
            await Contract.expectError(.unusable(location: store.path, detail: detail)) {
                _ = try await store.group(code: group.code, userID: Contract.bo.userID, now: Contract.start)
            }
            try hostile.execute("UPDATE group_info SET created_at = 1795000000000, daily_goal_blocks = 8")
        }
        // The members are still there for whoever reads them.
        #expect(try await store.members(code: group.code).count == 2)
    }

    /// SQLite's `sum()` raises "integer overflow" on two days of 2^63−1 blocks: the sums leave
    /// such days out (named), and add up the good ones.
    @Test func blockSumsLeaveOutDaysThatCannotBeRightAndNeverOverflow() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        let week = (0..<5).map { Contract.today.adding(days: $0 - 5) }
        try await store.upsertDayTotals(
            week.map { Contract.day(Contract.ana.userID, $0, vice: 3) }
                + week.map { Contract.day(Contract.bo.userID, $0, vice: 1) }, code: group.code)
        let insert = "INSERT OR REPLACE INTO day_total VALUES (?, ?, ?, ?, 8, 1, 0, 1)"
        for (index, vice) in [Int64.max, Int64.max, Int64.min].enumerated() {
            try hostile.execute(insert, arguments: [group.code.value, "bo234567", week[index].dayNumber, vice])
        }
        try hostile.execute(insert, arguments: [group.code.value, "ana23456", week[3].dayNumber, 2.5])
        try hostile.execute(insert, arguments: [group.code.value, "ana23456", week[4].dayNumber, "lots"])
        let (sums, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.blockSums(code: group.code, days: week[0]...week[4])
        }
        #expect(sums == [Contract.ana.userID: 9, Contract.bo.userID: 2])
        #expect(leftOut.count == 5)
        #expect(leftOut.allSatisfy { $0.kind == .dayTotal })
        #expect(
            leftOut.contains {
                $0.key == "bo234567 \(week[0])" && $0.reason.hasPrefix("vice_blocks is 9223372036854775807")
            })
        #expect(leftOut.contains { $0.key == "ana23456 \(week[4])" && $0.reason.contains("wrong kind") })
        // The day totals themselves: the same rows left out.
        let (totals, leftOutAgain) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.dayTotals(code: group.code, days: week[0]...week[4])
        }
        #expect(totals.count == 5)
        #expect(Set(leftOutAgain) == Set(leftOut))
    }

    /// The issue's case: a rule of at most −1 blocks made a member's monitor die with "Index out
    /// of range". Left out and named; the group's other challenges still show.
    @Test func aChallengeThatMakesNoSenseIsLeftOutNamedAndCannotBeJoined() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        try await store.createGroupChallenge(
            Contract.challenge("good1234"), code: group.code, creatorID: Contract.ana.userID, now: Contract.start)
        let planted: [(id: String, rule: String, days: Int64, reason: String)] = [
            ("minus111", #"{"dailyBlocks":{"max":-1,"target":{"allVice":{}}}}"#, 3, "At most 0 to 96 blocks a day"),
            ("malformed", #"{"dailyBlocks":{"max":"#, 3, "its rule is not one this version can read"),
            (
                "late2500", #"{"quietHours":{"from":{"minutes":1500},"target":{"allVice":{}},"until":{"minutes":60}}}"#,
                3,
                "its rule is not one this version can read"
            ),
            (
                "escapeapp", #"{"dailyBlocks":{"max":1,"target":{"app":{"_0":"\u001b[2J"}}}}"#, 3,
                "its rule names the app"
            ),
            ("forever1", #"{"streak":{}}"#, 1_000_000, "days is 1000000; a challenge lasts 1 to 365"),
        ]
        for challenge in planted {
            try hostile.execute(
                "INSERT INTO group_challenge VALUES (?, ?, 'ana23456', ?, ?, ?, 10, 10, NULL, 1795000000000, 0)",
                arguments: [group.code.value, challenge.id, challenge.rule, Contract.today.dayNumber, challenge.days])
            try hostile.execute(
                "INSERT INTO challenge_participant VALUES (?, ?, 'bo234567', 'in', 0, 1795000000000, NULL, 0)",
                arguments: [group.code.value, challenge.id])
        }
        let (boards, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.groupChallenges(code: group.code)
        }
        #expect(boards.map(\.challenge.id) == ["good1234"])
        #expect(leftOut.map(\.key).sorted() == planted.map(\.id).sorted(), "\(leftOut)")
        for challenge in planted {
            let row = try #require(leftOut.first { $0.key == challenge.id })
            #expect(row.kind == .challenge)
            #expect(row.reason.contains(challenge.reason), "\(row)")
        }
        do {
            _ = try await store.joinGroupChallenge(
                id: "minus111", code: group.code, userID: Contract.ana.userID, today: Contract.today,
                now: Contract.start)
            Issue.record("a challenge of at most -1 blocks was joined")
        } catch {
            guard case .invalidValue(let detail) = error else { throw error }
            #expect(detail.contains("minus111") && detail.contains("cannot be joined"), "\(detail)")
        }
    }

    @Test func coinsParticipantsAndWeekResultsThatCannotBeRightAreLeftOutAndNamed() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        let code = group.code.value
        try await store.createGroupChallenge(
            Contract.challenge("good1234"), code: group.code, creatorID: Contract.ana.userID, now: Contract.start)
        try hostile.execute(
            "INSERT INTO challenge_participant VALUES ('\(code)', 'good1234', 'bo234567', 'won', 9999, 0, NULL, 0)",
            "INSERT INTO coin_standing VALUES ('ana23456', 'ana', 120, 3, 1, 1, 1795000000000)",
            "INSERT INTO coin_standing VALUES ('bo234567', 'bo', 9223372036854775807, 2, 1, 1, 1795000000000)",
            "INSERT INTO week_result VALUES ('\(code)', 'ana23456', 0, 'settled', 7, 0, 0, 35, 'pending', 5, 10, 0, 0)",
            """
            INSERT INTO week_result VALUES ('\(code)', 'bo234567', 0, 'settled', 0, 7, 0, -9223372036854775808,
                'pending', 5, 10, 0, 0)
            """,
            "INSERT INTO week_result VALUES ('\(code)', 'bo234567', 7, 'settled', 7, 7, 7, 0, 'pending', 5, 10, 0, 0)")
        let (boards, boardsLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.groupChallenges(code: group.code)
        }
        #expect(boards.first?.participants.map(\.userID) == [Contract.ana.userID])
        #expect(
            boardsLeftOut.map(\.description) == [
                "participant good1234 bo234567: state \"won\" is not one this version knows"
            ])
        let (coins, coinsLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.memberCoins(code: group.code)
        }
        #expect(coins.map(\.userID) == [Contract.ana.userID])
        #expect(coinsLeftOut.map(\.key) == ["bo234567"])
        let ranking = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.publicRanking(userID: Contract.ana.userID, limit: 10)
        }
        #expect(ranking.value.standings.map(\.name) == ["ana"])
        #expect(ranking.leftOut.map(\.kind) == [.publicStanding])
        let epoch = LocalDate(dayNumber: 0)
        let (weeks, weeksLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.weekResults(code: group.code, weeks: epoch...epoch.adding(days: 7))
        }
        #expect(weeks.map(\.userID) == [Contract.ana.userID])
        #expect(weeksLeftOut.map(\.key) == ["bo234567 1970-01-01", "bo234567 1970-01-08"])
        #expect(
            weeksLeftOut.first?.reason.hasPrefix("coins is -9223372036854775808; its days bring -7000 to 0") == true)
        #expect(weeksLeftOut.last?.reason == "it counts 21 days in a week")
    }

    /// Rules that cannot be right show as the standard ones and settle nothing, named; a member
    /// can set them again.
    @Test func settlementRulesThatCannotBeRightSettleNothingUntilSetAgain() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.settlingGroup(in: store)
        let hostile = try HostileMember(path: path)
        let week = (0..<7).map { Contract.monday.adding(days: $0) }
        try await store.upsertDayTotals(week.map { Contract.day(Contract.ana.userID, $0, vice: 1) }, code: group.code)
        try hostile.execute("UPDATE group_info SET kept_day_coins = 9223372036854775807, week_start = 9")
        let closing = Contract.monday.adding(days: 7)
        let (rules, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.settlementRules(code: group.code)
        }
        #expect(rules == SettlementSchedule(rules: .standard))
        #expect(
            leftOut.map(\.description) == [
                "settlement rules \(group.code): week_start is 9; a week starts on weekday 1 to 7"
            ])
        let settled = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.settleWeeks(code: group.code, today: closing, now: Contract.noon(closing))
        }
        #expect(settled.value == 0)
        #expect(settled.leftOut == leftOut)
        try await store.setSettlementRules(
            .standard, code: group.code, userID: Contract.bo.userID, now: Contract.noon(closing))
        #expect(try await store.settleWeeks(code: group.code, today: closing, now: Contract.noon(closing)) == 1)
    }

    /// Changes of the rates another program wrote into the file: one whose first day is not a
    /// day, or beyond the years a store keeps, is left out and named, and the weeks keep the rules
    /// before it; a change that can be right is a change (the file trusts whoever can write it).
    /// The settlement that reaches the right one folds it in, and what was left out goes with it.
    @Test func aChangeOfTheRatesThatCannotBeRightIsLeftOut() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.settlingGroup(in: store)
        let hostile = try HostileMember(path: path)
        let nextWeek = Contract.monday.adding(days: 7)
        try hostile.execute(
            """
            INSERT INTO rules_change (code, from_day, kept_day_coins, over_day_coins, missing_days) VALUES
                ('\(group.code.value)', 'soon', 0, 1000, 'worst-case'),
                ('\(group.code.value)', 9223372036854775807, 0, 1000, 'worst-case'),
                ('\(group.code.value)', \(nextWeek.dayNumber), 9, 10, 'pending')
            """)
        let (schedule, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.settlementRules(code: group.code)
        }
        var nine = SettlementRules.standard
        nine.keptDayCoins = 9
        #expect(schedule == SettlementSchedule(rules: .standard, changes: [.init(from: nextWeek, rules: nine)]))
        #expect(leftOut.map(\.kind) == [.rulesChange, .rulesChange], "\(leftOut)")
        let days = (0..<14).map { Contract.monday.adding(days: $0) }
        try await store.upsertDayTotals(days.map { Contract.day(Contract.ana.userID, $0, vice: 1) }, code: group.code)
        let closing = Contract.monday.adding(days: 14)
        try await store.settleWeeks(code: group.code, today: closing, now: Contract.noon(closing))
        let ana = try await store.weekResults(code: group.code, weeks: Contract.monday...nextWeek).filter {
            $0.userID == Contract.ana.userID
        }
        #expect(ana.map(\.coins) == [7 * 5, 7 * 9])
        let after = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.settlementRules(code: group.code)
        }
        #expect(after.value == SettlementSchedule(rules: nine) && after.leftOut.isEmpty, "\(after)")
    }

    /// A member's row, a day and a pending result that cannot be right are left out of the
    /// settlement; everyone else's week is settled as it would be.
    @Test func theSettlementLeavesOutWhatCannotBeRightAndSettlesTheRest() async throws {
        let scratch = Scratch()
        let path = scratch.newStorePath()
        let store = try await SQLiteGroupStore.open(at: path)
        let group = try await Contract.settlingGroup(in: store)
        let hostile = try HostileMember(path: path)
        let code = group.code.value
        let week = (0..<7).map { Contract.monday.adding(days: $0) }
        try await store.upsertDayTotals(
            week.map { Contract.day(Contract.ana.userID, $0, vice: 1) }
                + week.map { Contract.day(Contract.bo.userID, $0, vice: 1) }, code: group.code)
        try hostile.execute(
            "UPDATE day_total SET vice_blocks = 9223372036854775807 WHERE user_id = 'ana23456' AND date = \(week[3].dayNumber)",
            "INSERT INTO member VALUES ('\(code)', 'cy\u{1B}[2J', 'cy', 'cy', 0, 0, 0, NULL, 0, 1, 'soon', 0)",
            """
            INSERT INTO week_result VALUES ('\(code)', 'bo234567', \(week[0].adding(days: -7).dayNumber), 'pending',
                0, 0, 7, 0, 'pending', 9223372036854775807, 10, NULL, 0)
            """)
        let closing = Contract.monday.adding(days: 7)
        let settled = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.settleWeeks(code: group.code, today: closing, now: Contract.noon(closing))
        }
        #expect(Set(settled.leftOut.map(\.kind)) == [.member, .dayTotal, .weekResult], "\(settled.leftOut)")
        let results = try await store.weekResults(code: group.code, weeks: Contract.monday...Contract.monday)
        // Ana's day that cannot be right counts as missing: her week waits for it.
        #expect(results.map(\.status) == [.pending, .settled])
        #expect(results.first?.tally == WeekTally(keptDays: 6, overDays: 0, missingDays: 1))
        #expect(results.last?.coins == 35)
    }

    /// A machine's productive blocks written by hand as a value no count is: its rows are left out
    /// of the member's machines and days, and named.
    @Test func aMachinesProductiveBlocksThatCannotBeRightLeaveItsRowsOutNamed() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        let laptop = Contract.laptop
        try await store.addMachine(
            laptop, name: Contract.machineName("laptop"), userID: Contract.ana.userID, adoptingFirst: false)
        var total = Contract.day(Contract.ana.userID, Contract.today, vice: 2)
        total.productiveBlocks = 3
        try await store.upsertDayTotals([total], code: group.code, machine: laptop)
        try hostile.execute("UPDATE machine SET productive_today = 2.5 WHERE machine_id = '\(laptop.value)'")
        try hostile.execute("UPDATE machine_day_total SET productive_blocks = 2.5 WHERE machine_id = '\(laptop.value)'")
        let (machines, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.machines(userID: Contract.ana.userID)
        }
        #expect(!machines.contains { $0.id == laptop })
        #expect(leftOut.contains { $0.kind == .machine && $0.reason.contains("productive_today") }, "\(leftOut)")
        let (days, daysLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.machineDayTotals(
                code: group.code, userID: Contract.ana.userID, days: Contract.today...Contract.today)
        }
        #expect(days.isEmpty)
        #expect(daysLeftOut.map(\.kind) == [.machineDayTotal], "\(daysLeftOut)")
        #expect(daysLeftOut.first?.reason.contains("productive_blocks") == true, "\(daysLeftOut)")
    }

    /// A machine's rows written by hand (what the table's checks let through): each that cannot be
    /// right is left out of the member's machines and days and named; the member's today, and
    /// their next report, skip what cannot be read.
    @Test func aMachineRowThatCannotBeRightIsLeftOutNamedAndTheMemberStillReports() async throws {
        let (store, group, hostile, scratch) = try await group()
        defer { withExtendedLifetime(scratch) {} }
        let laptop = Contract.laptop
        try await store.addMachine(
            laptop, name: Contract.machineName("laptop"), userID: Contract.ana.userID, adoptingFirst: false)
        try await store.upsertDayTotals(
            [Contract.day(Contract.ana.userID, Contract.today, vice: 2)], code: group.code, machine: laptop)
        try hostile.execute("UPDATE machine SET added_at = 9223372036854775807 WHERE machine_id = 'first'")
        try hostile.execute(
            "UPDATE machine SET blocks_today = 2.5, day = \(Contract.today.dayNumber) WHERE machine_id = '\(laptop.value)'"
        )
        try hostile.execute("UPDATE machine_day_total SET vice_blocks = 2.5 WHERE machine_id = '\(laptop.value)'")
        let (machines, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.machines(userID: Contract.ana.userID)
        }
        #expect(machines.isEmpty)
        #expect(leftOut.map(\.kind) == [.machine, .machine], "\(leftOut)")
        #expect(leftOut.contains { $0.reason.contains("added_at is 9223372036854775807 ms") }, "\(leftOut)")
        #expect(leftOut.contains { $0.reason.contains("blocks_today holds a value of the wrong kind") }, "\(leftOut)")
        let (days, daysLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.machineDayTotals(
                code: group.code, userID: Contract.ana.userID, days: Contract.today...Contract.today)
        }
        #expect(days.isEmpty)
        #expect(daysLeftOut.map(\.kind) == [.machineDayTotal], "\(daysLeftOut)")
        // ana's first machine reports: her today skips the laptop's unreadable blocks.
        var report = Contract.ana
        report.blocksToday = 4
        report.version = 2
        #expect(try await store.upsertProfile(report))
        #expect(try await store.members(code: group.code).first?.blocksToday == 4)
    }
}
