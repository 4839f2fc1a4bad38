import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// The games read against a PostgreSQL group store, which keeps the games' own change number: a
/// mate's block costs them one call, and what was read stays as it was; a change of the games is
/// read. (What was read is made different from the store on purpose below, so that a fetch that
/// read anything more than the number would show it.)
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"] != nil,
        "needs PostgreSQL: export SCREENMATES_TEST_POSTGRES=\"$(.ci/postgres start)\""))
struct GroupGamesMarkTests {
    /// A member's home on the server's clock (a strict store), with its own identity file.
    struct Home {
        let local: LocalStore
        let location: GroupStoreLocation
        let actions: GroupActions
        let userID: UserID

        init(_ name: String, _ id: String, url: String, in path: String, clock: ManualClock) throws {
            let utc = TimeZone(identifier: "UTC")!
            local = try LocalStore.open(at: "\(path)/\(name).sqlite")
            userID = UserID(id)
            var settings = try local.createProfileIfNeeded(
                userID: userID, trackingStart: DayCalendar(timeZone: utc).day(containing: clock.now()),
                apps: [TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice)], now: clock.now())
            settings.displayName = try DisplayName(validating: name)
            try local.updateSettings(settings)
            location = try GroupStoreLocation.postgres(
                url: url, keyring: MemberIdentityFile(path: "\(path)/\(name)-identity").keyring)
            actions = GroupActions(local: local, location: location, clock: clock, timeZone: .fixed(utc))
        }

        func games(_ code: GroupCode, clock: ManualClock) -> GroupGames {
            GroupGames(
                local: local, membership: GroupMembership(code: code, dailyGoalBlocks: 8), userID: userID,
                clock: clock, calendar: DayCalendar(timeZone: TimeZone(identifier: "UTC")!))
        }
    }

    @Test func aMatesBlockLeavesTheGamesAsReadAndAChangeOfTheGamesIsRead() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["SCREENMATES_TEST_POSTGRES"])
        let path = NSTemporaryDirectory() + "screenmates-games-mark-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = "screenmates_games_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let created = try await Command.run(
            "/usr/bin/env", ["psql", "-X", "-q", server, "-c", "CREATE DATABASE \(database)"])
        #expect(created.status == 0, "\(created.stderr)")
        let url = server.replacingOccurrences(of: "/postgres?", with: "/\(database)?")

        let clock = ManualClock(Date())
        let ana = try Home("ana", "ana23456", url: url, in: path, clock: clock)
        let bo = try Home("bo", "bo234567", url: url, in: path, clock: clock)
        // The new database's schema first, with the time a migration is given (a busy test run
        // takes longer than a store call's 5 s to make it).
        try await ana.location.prepare()
        let code = try await ana.actions.create(goal: 8).code
        _ = try await bo.actions.joinForCommand(code)
        let store = try await ana.location.open()
        let boStore = try await bo.location.open()
        let games = ana.games(code, clock: clock)
        let first = try await games.fetch(from: store)
        #expect(first.boards.isEmpty)
        let firstMark = try #require(first.mark)

        // What ana read, made different from the store: a board no one shared, and other coins for a
        // kept day (a fetch that read the rules would read everything again).
        var read = first
        read.rules.keptDayCoins = 99
        let madeUp = GroupChallengeBoard(
            challenge: GroupChallenge(
                challenge: Challenge(
                    id: "madeup", rule: .streak, firstDay: clock.today, days: 3, reward: 10, penalty: 10),
                creatorID: ana.userID, createdAt: clock.now()),
            participants: [])
        read.boards = [madeUp]

        // bo's block: the group's number moves, the games' does not; the board read stays.
        try await boStore.upsertDayTotals(
            [DayTotal(userID: bo.userID, date: clock.today, viceBlocks: 1, goalBlocks: 8, version: 5)], code: code)
        let afterBlock = try await games.fetch(from: store, previous: read)
        #expect(afterBlock.boards.map(\.challenge.challenge.id) == ["madeup"], "nothing but the number was read")
        #expect(afterBlock.rules.keptDayCoins == 99, "nothing but the number was read")
        #expect(try #require(afterBlock.mark) > firstMark, "complete up to the group's new number")

        // Marks the look said with the group's changes stand for asking: these say nothing changed.
        let said = GroupGamesMarks(
            marks: GroupChangeMarks(mark: try #require(afterBlock.mark), lastRemoval: 0), games: firstMark)
        let trusted = try await games.fetch(from: store, previous: read, known: said)
        #expect(trusted.rules.keptDayCoins == 99, "the marks said were taken")

        // bo shares a challenge: the games' number moves, and what changed is read.
        try await boStore.createGroupChallenge(
            Challenge(id: "bochal", rule: .streak, firstDay: clock.today, days: 3, reward: 10, penalty: 10),
            code: code, creatorID: bo.userID, now: clock.now())
        let afterChallenge = try await games.fetch(from: store, previous: afterBlock)
        #expect(afterChallenge.boards.map(\.challenge.challenge.id) == ["bochal"], "read whole: the rules differ")
        #expect(afterChallenge.rules == .standard)
        for opened in [store, boStore] { await opened.close() }
    }
}

extension ManualClock {
    fileprivate var today: LocalDate { DayCalendar(timeZone: TimeZone(identifier: "UTC")!).day(containing: now()) }
}
