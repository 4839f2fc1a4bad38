import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

/// What every `GroupStore` must do so that a reader can follow a group by its changes rather than
/// by reading it whole at every change (the fourth schema): the rows changed after a change number
/// come back, and only those; a removal is marked; and a reader that merges the changes into what
/// it had sees exactly what a whole read sees.
extension GroupStoreContract {
    static let changes: [Check] = [
        Check("the rows changed after a change number come back, and only those") {
            try await rowsChangedAfterAMarkComeBack($0.fresh)
        },
        Check("a removal is marked: a reader from before it reads the group whole") {
            try await aRemovalIsMarked($0.fresh)
        },
        Check("a reader that catches up from changes sees what a whole read sees") {
            try await catchingUpMatchesAWholeRead($0.fresh)
        },
    ]

    static let cy = profile("cy234567", "cy")

    static func rowsChangedAfterAMarkComeBack(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        _ = try await store.join(code: group.code, member: cy, now: start)
        try await store.upsertDayTotals(
            [ana, bo, cy].map { day($0.userID, today.adding(days: -1), vice: 2) }, code: group.code)
        try await store.createGroupChallenge(challenge("walk42"), code: group.code, creatorID: ana.userID, now: at(1))
        try await store.createGroupChallenge(challenge("read17"), code: group.code, creatorID: ana.userID, now: at(2))
        let seen = try await store.changeMarks(code: group.code)
        #expect(seen.mark == (try await store.changeMark(code: group.code)))
        let week = try #require(GroupSnapshot.finishedDays(of: .week, today: today))

        // Nothing changed: nothing comes back.
        #expect(try await store.members(code: group.code, changedAfter: seen.mark).isEmpty)
        #expect(try await store.blockSums(code: group.code, days: week, changedAfter: seen.mark).isEmpty)
        #expect(try await store.groupChallenges(code: group.code, changedAfter: seen.mark).isEmpty)
        #expect(try await store.memberCoins(code: group.code, changedAfter: seen.mark).isEmpty)

        // bo's profile, bo's day, cy's part in one challenge, ana's coins.
        var update = bo
        update.version = 2
        update.blocksToday = 5
        try await store.upsertProfile(update)
        try await store.upsertDayTotals([day(bo.userID, today.adding(days: -2), vice: 3)], code: group.code)
        _ = try await store.joinGroupChallenge(
            id: "walk42", code: group.code, userID: cy.userID, today: today, now: at(3))
        try await store.reportStanding(
            StandingReport(
                userID: ana.userID, displayName: ana.displayName, coins: 50, badges: 1, isPublic: false, version: 1,
                updatedAt: at(4)))
        let now = try await store.changeMarks(code: group.code)
        #expect(now.mark > seen.mark && now.lastRemoval <= seen.mark && now.canCatchUp(from: seen.mark))

        #expect(
            try await store.members(code: group.code, changedAfter: seen.mark).map(\.userID)
                == [ana, update].map(\.userID))
        #expect(try await store.members(code: group.code, changedAfter: seen.mark).last == update)
        #expect(try await store.blockSums(code: group.code, days: week, changedAfter: seen.mark) == [bo.userID: 5])
        let boards = try await store.groupChallenges(code: group.code, changedAfter: seen.mark)
        #expect(boards.map(\.challenge.id) == ["walk42"], "only the challenge a part of changed")
        #expect(boards.first?.participants.map(\.userID) == [ana.userID, cy.userID], "the board comes whole")
        #expect(try await store.memberCoins(code: group.code, changedAfter: seen.mark).map(\.userID) == [ana.userID])
        // Read after the newest mark: nothing.
        #expect(try await store.members(code: group.code, changedAfter: now.mark).isEmpty)
        #expect(try await store.groupChallenges(code: group.code, changedAfter: now.mark).isEmpty)

        // A new name shows on the boards its bearer takes part in.
        var renamed = cy
        renamed.version = 2
        renamed.displayName = name("cyril")
        try await store.upsertProfile(renamed)
        let renamedBoards = try await store.groupChallenges(code: group.code, changedAfter: now.mark)
        #expect(renamedBoards.map(\.challenge.id) == ["walk42"])
        #expect(renamedBoards.first?.participants.last?.name == "cyril")

        // Week results: a settlement's results come back after the mark before it, not after it.
        let settling = try await settlingGroup(in: store)
        try await store.upsertDayTotals(
            (0..<7).map { day(ana.userID, monday.adding(days: $0), vice: 1) }
                + (0..<7).map { day(bo.userID, monday.adding(days: $0), vice: 9) }, code: settling.code)
        let before = try await store.changeMark(code: settling.code)
        try await store.settleWeeks(
            code: settling.code, today: monday.adding(days: 7), now: noon(monday, plus: 7 * 86400))
        let weeks = monday...monday
        let results = try await store.weekResults(code: settling.code, weeks: weeks, changedAfter: before)
        #expect(results.map(\.userID) == [ana.userID, bo.userID])
        let after = try await store.changeMark(code: settling.code)
        #expect(try await store.weekResults(code: settling.code, weeks: weeks, changedAfter: after).isEmpty)
    }

    static func aRemovalIsMarked(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        try await store.upsertDayTotals([day(bo.userID, today.adding(days: -1), vice: 4)], code: group.code)
        let seen = try await store.changeMarks(code: group.code)
        #expect(seen.canCatchUp(from: seen.mark))
        try await store.leave(code: group.code, userID: bo.userID)
        let now = try await store.changeMarks(code: group.code)
        #expect(now.lastRemoval > seen.mark && !now.canCatchUp(from: seen.mark))
        #expect(now.canCatchUp(from: now.mark), "a reader after the removal catches up again")
        // A look from before the removal reads the group whole, without bo.
        var previous = GroupSnapshot(group: group, members: [ana, bo], day: today, fetchedAt: start, mark: seen.mark)
        previous.group.memberCount = 2
        let look = try await GroupLook.look(
            at: store, code: group.code, userID: ana.userID, today: today, now: at(5), previous: previous)
        #expect(look.whole && look.snapshot.members == [ana] && look.snapshot.group.memberCount == 1)
        #expect(look.snapshot.mark == now.mark)
    }

    /// One thing a member may do to the group, as the property below draws them.
    enum GroupMove: Sendable, CustomStringConvertible {
        case profile(member: Int, blocks: Int, renamed: Bool)
        case dayTotal(member: Int, daysBack: Int, vice: Int)
        case join(member: Int)
        case leave(member: Int)
        case standing(member: Int, coins: Int)
        case createChallenge(member: Int)
        case joinChallenge(member: Int, challenge: Int)
        case report(member: Int, challenge: Int, daysKept: Int, failed: Bool)
        case look

        var description: String {
            switch self {
            case .profile(let m, let b, let r): "profile(\(m), \(b)\(r ? ", renamed" : ""))"
            case .dayTotal(let m, let d, let v): "day(\(m), -\(d), \(v))"
            case .join(let m): "join(\(m))"
            case .leave(let m): "leave(\(m))"
            case .standing(let m, let c): "standing(\(m), \(c))"
            case .createChallenge(let m): "create(\(m))"
            case .joinChallenge(let m, let c): "joinChallenge(\(m), \(c))"
            case .report(let m, let c, let d, let f): "report(\(m), \(c), \(d)\(f ? ", failed" : ""))"
            case .look: "look"
            }
        }

        static func random(using rng: inout some RandomNumberGenerator) -> GroupMove {
            let member = Int.random(in: 0..<4, using: &rng)
            switch Int.random(in: 0..<12, using: &rng) {
            case 0, 1:
                return .profile(member: member, blocks: .random(in: 0...30, using: &rng), renamed: .random(using: &rng))
            case 2, 3:
                return .dayTotal(
                    member: member, daysBack: .random(in: 1...40, using: &rng), vice: .random(in: 0...20, using: &rng))
            case 4: return .join(member: member)
            case 5: return .leave(member: member)
            case 6: return .standing(member: member, coins: .random(in: 0...500, using: &rng))
            case 7: return .createChallenge(member: member)
            case 8: return .joinChallenge(member: member, challenge: .random(in: 0..<3, using: &rng))
            case 9:
                return .report(
                    member: member, challenge: .random(in: 0..<3, using: &rng),
                    daysKept: .random(in: 0...3, using: &rng), failed: .random(using: &rng))
            default: return .look
            }
        }
    }

    /// A property: whatever members do, in any order, a reader that looks now and then and merges
    /// what changed since its last look holds the same group, sums, challenges and coins as a
    /// reader that reads everything at once.
    static func catchingUpMatchesAWholeRead(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let moves = Generator<[GroupMove], Shrink.None<[GroupMove]>> { rng in
            (0..<Int.random(in: 4...18, using: &rng)).map { _ in GroupMove.random(using: &rng) }
        }
        await propertyCheck(count: 15, input: moves) { moves in
            let tag = UUID().uuidString.prefix(4).lowercased()
            let people = ["ana", "bo", "cy", "dee"].map { profile("\($0)\(tag)x", "\($0)_\(tag)") }
            let group = try await store.createGroup(dailyGoalBlocks: 8, creator: people[0], now: start)
            var version: Int64 = 1
            var challenges: [String] = []
            var reader: GroupSnapshot?
            var games: GroupGamesSnapshot?
            for move in moves + [.look] {
                version += 1
                let who = people[move.member ?? 0]
                switch move {
                case .profile(_, let blocks, let renamed):
                    var update = who
                    update.version = version
                    update.blocksToday = blocks
                    if renamed { update.displayName = name(who.displayName.value + "_\(version % 10)") }
                    _ = try? await store.upsertProfile(update)
                case .dayTotal(_, let daysBack, let vice):
                    try? await store.upsertDayTotals(
                        [day(who.userID, today.adding(days: -daysBack), vice: vice, version: version)], code: group.code
                    )
                case .join:
                    var joining = who
                    joining.version = version
                    _ = try? await store.join(code: group.code, member: joining, now: at(Int(version)))
                case .leave(let member):
                    if member != 0 { try? await store.leave(code: group.code, userID: who.userID) }
                case .standing(_, let coins):
                    _ = try? await store.reportStanding(
                        StandingReport(
                            userID: who.userID, displayName: who.displayName, coins: coins, badges: coins % 3,
                            isPublic: false, version: version, updatedAt: at(Int(version))))
                case .createChallenge:
                    let id = "c\(tag)\(challenges.count)"
                    if (try? await store.createGroupChallenge(
                        challenge(id), code: group.code, creatorID: who.userID, now: at(Int(version)))) != nil
                    {
                        challenges.append(id)
                    }
                case .joinChallenge(_, let index):
                    guard index < challenges.count else { break }
                    _ = try? await store.joinGroupChallenge(
                        id: challenges[index], code: group.code, userID: who.userID, today: today, now: at(Int(version))
                    )
                case .report(_, let index, let daysKept, let failed):
                    guard index < challenges.count else { break }
                    _ = try? await store.reportParticipant(
                        ParticipantReport(
                            challengeID: challenges[index], userID: who.userID, state: failed ? .failed : .stillIn,
                            daysKept: daysKept, decidedAt: failed ? at(Int(version)) : nil),
                        code: group.code)
                case .look:
                    let look = try await GroupLook.look(
                        at: store, code: group.code, userID: people[0].userID, today: today, now: at(Int(version)),
                        previous: reader)
                    reader = look.snapshot
                    let whole = try await GroupLook.look(
                        at: store, code: group.code, userID: people[0].userID, today: today, now: at(Int(version)),
                        previous: nil
                    ).snapshot
                    #expect(look.snapshot.members == whole.members, "members after \(moves)")
                    #expect(look.snapshot.group == whole.group, "group after \(moves)")
                    #expect(look.snapshot.weekBlocks == whole.weekBlocks, "week after \(moves)")
                    #expect(look.snapshot.monthBlocks == whole.monthBlocks, "month after \(moves)")
                    games = try await lookAtGames(store, code: group.code, previous: games)
                    #expect(
                        games?.boards == (try await store.groupChallenges(code: group.code)), "boards after \(moves)")
                    #expect(games?.coins == (try await store.memberCoins(code: group.code)), "coins after \(moves)")
                }
            }
        }
    }

    /// The games as a reader following the changes holds them (what the app's `GroupGames.fetch`
    /// does, without the weeks).
    static func lookAtGames(_ store: any GroupStore, code: GroupCode, previous: GroupGamesSnapshot?) async throws
        -> GroupGamesSnapshot
    {
        let marks = try await store.changeMarks(code: code)
        let seen = previous?.mark.flatMap { marks.canCatchUp(from: $0) ? $0 : nil }
        let read = GroupGamesSnapshot(
            boards: try await store.groupChallenges(code: code, changedAfter: seen),
            coins: try await store.memberCoins(code: code, changedAfter: seen), rules: .standard, weeks: [],
            fetchedAt: start, mark: marks.mark)
        guard let previous, seen != nil else { return read }
        var merged = previous.merging(boards: read.boards, coins: read.coins, weeks: [])
        merged.mark = marks.mark
        return merged
    }
}

extension GroupStoreContract.GroupMove {
    /// The member a move is made by, if any.
    var member: Int? {
        switch self {
        case .profile(let m, _, _), .dayTotal(let m, _, _), .join(let m), .leave(let m), .standing(let m, _),
            .createChallenge(let m), .joinChallenge(let m, _), .report(let m, _, _, _):
            m
        case .look: nil
        }
    }
}
