import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

/// Reads a group holding planted `HostileRow`s back through any `GroupStore`, as a client does,
/// and follows what it read into the leaderboard, the settlement, the coin ledger and the judge.
/// Nothing may trap; every right row must come back, and every wrong row a read meets must be
/// left out and named (`LeftOutRow`), never returned.
///
/// The group has ana and bo (`GroupStoreContract`) and the challenge `HostileRows.challengeID`
/// before the rows are planted; `today` is the day they were made around.
package enum HostileRowsCheck {
    package static func expectReadersHold(
        _ store: any GroupStore, group: Group, planted: [HostileRow], today: LocalDate,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let code = group.code
        let all = GroupStoreRules.storableDates
        func expectKept(
            _ table: HostileRow.Table, _ returned: [String], _ leftOut: [LeftOutRow], _ kind: LeftOutRow.Kind
        ) {
            let rows = planted.filter { $0.table == table }
            let right = Set(rows.filter(\.isRight).map(\.id))
            let wrong = rows.filter { !$0.isRight && $0.isRead }
            #expect(
                right.isSubset(of: returned), "\(table) rows that are right must come back",
                sourceLocation: sourceLocation)
            #expect(
                rows.filter { !$0.isRight }.allSatisfy { !returned.contains($0.id) },
                "\(table) rows that are wrong must not", sourceLocation: sourceLocation)
            #expect(
                leftOut.filter { $0.kind == kind }.count == wrong.count,
                "\(table): \(wrong.count) wrong rows read, named: \(leftOut)", sourceLocation: sourceLocation)
        }

        let (members, membersLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.members(code: code)
        }
        expectKept(.member, members.map(\.userID.value), membersLeftOut, .member)
        #expect(
            membersLeftOut.allSatisfy { !SafeText.hasUnsafeCharacters($0.description) }, sourceLocation: sourceLocation)

        let (totals, totalsLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.dayTotals(code: code, days: all)
        }
        expectKept(.dayTotal, totals.map(\.userID.value), totalsLeftOut, .dayTotal)
        let (sums, sumsLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.blockSums(code: code, days: all)
        }
        var expectedSums: [UserID: Int] = [:]
        for total in totals { expectedSums[total.userID, default: 0] += total.viceBlocks }
        #expect(sums == expectedSums, "the sums are the right days added up", sourceLocation: sourceLocation)
        #expect(Set(sumsLeftOut) == Set(totalsLeftOut), sourceLocation: sourceLocation)

        let (boards, boardsLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.groupChallenges(code: code)
        }
        expectKept(.challenge, boards.map(\.challenge.id), boardsLeftOut, .challenge)
        let base = boards.first { $0.challenge.id == HostileRows.challengeID }
        #expect(base != nil, "the group's own challenge still shows", sourceLocation: sourceLocation)
        expectKept(.participant, base?.participants.map(\.userID.value) ?? [], boardsLeftOut, .participant)

        let (coins, coinsLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.memberCoins(code: code)
        }
        expectKept(.coins, coins.map(\.userID.value), coinsLeftOut, .coins)

        let (weeks, weeksLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.weekResults(code: code, weeks: all)
        }
        expectKept(.weekResult, weeks.map(\.userID.value), weeksLeftOut, .weekResult)

        let (rules, rulesLeftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            try await store.settlementRules(code: code).rules
        }
        if let planted = planted.first(where: { $0.table == .settlementRules }), !planted.isRight {
            #expect(rules == .standard && rulesLeftOut.count == 1, "\(rulesLeftOut)", sourceLocation: sourceLocation)
        } else {
            #expect(rulesLeftOut.isEmpty, "\(rulesLeftOut)", sourceLocation: sourceLocation)
        }
        let ranking = try await store.publicRanking(userID: GroupStoreContract.ana.userID, limit: 1000)
        #expect(
            ranking.standings.allSatisfy { (try? DisplayName(validating: $0.name)) != nil },
            sourceLocation: sourceLocation)

        // What the client does with it all.
        let snapshot = GroupSnapshot(
            group: group, members: members, day: today, weekBlocks: sums, monthBlocks: sums, fetchedAt: .now)
        let me = LeaderboardMember(
            id: GroupStoreContract.ana.userID, name: "ana", blocks: 3, streak: 1, lastActive: nil)
        let boardsByPeriod = GroupLeaderboards.make(snapshot: snapshot, today: today, me: me, myHistory: [])
        for (_, entries) in boardsByPeriod {
            #expect(
                Set(entries.map(\.member.id)) == Set(members.map(\.userID)).union([me.id]),
                sourceLocation: sourceLocation)
        }
        _ = CoinRanking.rank(
            coins.map {
                CoinStanding(userID: $0.userID, name: $0.userID.value, coins: $0.coins, badges: $0.badges, isMe: false)
            })
        var ledger = CoinLedger()
        for result in weeks where result.status == .settled {
            ledger.book(cause: result.cause(group: code), asked: result.coins, reason: "week", at: .now)
        }
        #expect(ledger.balance >= 0, sourceLocation: sourceLocation)
        let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!, dayStartHour: 0)
        let judge = ChallengeJudge(calendar: calendar)
        let vice = (0..<30).map { minute in
            UsageEvent(
                id: UUID(), appID: "youtube", category: .vice, seconds: 900,
                occurredAt: calendar.start(of: today).addingTimeInterval(Double(minute) * 3000))
        }
        for board in boards {
            let challenge = board.challenge.challenge
            let verdict = judge.verdict(
                challenge, events: vice, goal: { _ in 8 }, now: calendar.start(of: today.adding(days: 400)))
            if case .refused(let problem) = verdict {
                Issue.record(
                    "a challenge read back is refused by the judge: \(problem)", sourceLocation: sourceLocation)
            }
            _ = ChallengeStandings.rank(board.participants)
            _ = ParticipantProgress.report(challenge, outcome: nil, decidedDay: nil, today: today)
            _ = challenge.summary
        }

        // The settlement reads every member, day and pending week: it leaves out, never traps.
        for day in [today, today.adding(days: 7), today.adding(days: 60)] {
            _ = try await store.settleWeeks(code: code, today: day, now: calendar.start(of: day))
        }
    }
}
