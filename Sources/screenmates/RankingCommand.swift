import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

/// `screenmates ranking`: your group by coins, or everyone in the group store who opted in.
struct RankingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ranking", abstract: "Rank by coins: your group, or (--public) everyone who opted in.",
        discussion: """
            Your group always sees your name, coins and how many badges you have. With \
            `screenmates config set public_ranking true` everyone using the same group store does too, \
            in the public ranking. Never an app name or a usage figure.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(name: .customLong("public"), help: "Everyone in the group store who opted in, not only your group.")
    var everyone = false

    @Option(parsing: .unconditional, help: "How many to show of the public ranking (1 to 1000).")
    var limit = 20

    @Flag(help: "Print JSON: {scope, total, myRank, standings: [{rank, name, coins, badges, isMe}], notShared}.")
    var json = false

    struct Report: Encodable {
        struct Standing: Encodable {
            var rank: Int
            var name: String
            var coins, badges: Int
            var isMe: Bool
        }

        var scope: String
        var total: Int
        @Nullable var myRank: Int?
        var standings: [Standing]
        /// Members who have not shared their coins yet (group ranking).
        var notShared: [String]
        var offline: Bool
    }

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            guard (1...GroupStoreRules.publicRankingLimit).contains(limit) else {
                throw .usage("--limit is 1 to \(GroupStoreRules.publicRankingLimit); \(limit) is not.")
            }
            let home = try ChallengeHome.open(global, clock)
            // Your own standing goes out first (each change once).
            let games = try await home.games()
            let report = everyone ? try await publicReport(home) : try await groupReport(home, games: games)
            if json {
                print(ChallengeHome.json(report))
                return 0
            }
            print(
                everyone
                    ? "Everyone who opted in: \(report.total)"
                        + (report.myRank.map { ", you are #\($0)" }
                            ?? " (you have not: `screenmates config set public_ranking true`)")
                    : "Group \(home.settings.group!.code) by coins"
                        + (report.offline ? " (the group store is out of reach: as last seen)" : ""))
            for standing in report.standings {
                let name = SafeText.padded(standing.name + (standing.isMe ? " (you)" : ""), toCells: 24)
                let rank = String(standing.rank)
                print(
                    "  \(String(repeating: " ", count: max(0, 4 - rank.count)))\(rank)  \(name)  \(standing.coins) coins  \(standing.badges) badge\(standing.badges == 1 ? "" : "s")"
                )
            }
            if !report.notShared.isEmpty {
                print("  Not shared yet: " + report.notShared.map(SafeText.displayable).joined(separator: ", "))
            }
            return 0
        }
    }

    private func groupReport(_ home: ChallengeHome, games: GamesRead?) async throws(AppError) -> Report {
        guard home.settings.group != nil else {
            throw AppError("You are not in a group; `screenmates ranking --public` shows everyone who opted in.")
        }
        let names = try await home.memberNames()
        let coins = games?.snapshot?.coins ?? []
        let standings = coins.compactMap { member -> CoinStanding? in
            guard let name = names[member.userID] else { return nil }
            return CoinStanding(
                userID: member.userID, name: name, coins: member.coins, badges: member.badges,
                isMe: member.userID == home.settings.userID)
        }
        let ranked = CoinRanking.rank(standings)
        let shared = Set(coins.map(\.userID))
        return Report(
            scope: "group", total: ranked.count, myRank: ranked.first { $0.standing.isMe }?.rank,
            standings: ranked.map {
                Report.Standing(
                    rank: $0.rank, name: $0.standing.name, coins: $0.standing.coins, badges: $0.standing.badges,
                    isMe: $0.standing.isMe)
            },
            notShared: names.filter { !shared.contains($0.key) }.map(\.value).sorted(), offline: games?.offline ?? true)
    }

    private func publicReport(_ home: ChallengeHome) async throws(AppError) -> Report {
        let location = try home.global.resolveGroupStore(home: home.home, settings: home.settings)
        let ranking: PublicRanking
        do {
            ranking = try await location.using { store throws(GroupStoreError) in
                try await store.publicRanking(userID: home.settings.userID, limit: limit)
            }
        } catch {
            throw AppError(error.message)
        }
        return Report(
            scope: "public", total: ranking.total, myRank: ranking.myRank,
            standings: CoinRanking.rank(ranking.standings).map {
                Report.Standing(
                    rank: $0.rank, name: $0.standing.name, coins: $0.standing.coins, badges: $0.standing.badges,
                    isMe: $0.standing.isMe)
            }, notShared: [], offline: false)
    }
}
