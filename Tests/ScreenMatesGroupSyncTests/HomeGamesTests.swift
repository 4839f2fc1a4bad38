import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesStore
import ScreenMatesTestSupport
import ScreenMatesUI
import Testing

/// What the challenges, profile and week screens get from the application, and what their
/// effects do, against a real group-store file.
@Suite struct HomeGamesTests {
    typealias TwoHomes = GroupGamesTests.TwoHomes

    private func support(_ homes: TwoHomes, _ local: LocalStore) throws -> HomeGames {
        HomeGames(
            local: local, clock: homes.clock, calendar: GroupGamesTests.utc, games: try homes.games(local),
            location: .sqlite(path: homes.directory + "/group-store.sqlite"))
    }

    @Test func theScreensEffectsCreateJoinAndGiveUpAndTheirDataShowsIt() async throws {
        let homes = try await TwoHomes(createdAt: TimeFormat.parseInstant("2026-11-21T08:00", timeZone: .gmt)!)
        let ana = try support(homes, homes.ana)
        let bo = try support(homes, homes.bo)
        let shared = await ana.perform(
            .create(
                ChallengeRequest(
                    rule: .dailyBlocks(max: 1, target: .allVice), days: 2, reward: 30, penalty: 10, startNow: false,
                    shared: true)))
        #expect(!shared.error, "\(shared.message)")
        let personal = await ana.perform(
            .create(
                ChallengeRequest(rule: .streak, days: 3, reward: 5, penalty: 5, startNow: true, shared: false)))
        #expect(!personal.error && personal.message.contains("starts now"), "\(personal.message)")

        // Bo sees the group's challenge open, joins it, and gives it up.
        let seen = try await homes.games(homes.bo).exchange(with: homes.store).snapshot
        let boSettings = try #require(try homes.bo.settings())
        let open = try #require(
            bo.gamesData(settings: boSettings, snapshot: seen, offline: false, names: [:]).challenges.first)
        #expect(open.isGroup && !open.joined && open.canJoin && open.participants.map(\.name) == ["ana"])
        #expect(await bo.perform(.join(open.id)).error == false)
        #expect(await bo.perform(.forfeit(open.id)).message.contains("Challenge given up"))
        #expect(await bo.perform(.forfeit(open.id)).error, "once")
        // The group hears it with bo's next exchange (his link's, poked after every effect).
        _ = try await homes.games(homes.bo).exchange(with: homes.store)

        // Ana's screens: her two challenges, Bo gave up, her coins, the week (none settled yet).
        let after = try await homes.games(homes.ana).exchange(with: homes.store).snapshot
        let anaSettings = try #require(try homes.ana.settings())
        let data = ana.gamesData(
            settings: anaSettings, snapshot: after, offline: false,
            names: [UserID("ana23456"): "ana", UserID("bo234567"): "bo"])
        #expect(data.challenges.count == 2 && data.inGroup)
        let group = try #require(data.challenges.first { $0.isGroup })
        #expect(group.participants.map(\.state) == [.stillIn, .forfeited], "\(group.participants)")
        #expect(group.canForfeit && data.week?.weeks.isEmpty == true && data.coins == 0)
    }
}
