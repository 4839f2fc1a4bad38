import ArgumentParser
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome

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

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            guard (1...RankingReport.publicLimit).contains(limit) else {
                throw .usage("--limit is 1 to \(RankingReport.publicLimit); \(limit) is not.")
            }
            let home = try ChallengeHome.open(global, clock)
            // Your own standing goes out first (each change once).
            let games = try await home.games()
            let report =
                everyone ? try await home.publicRanking(limit: limit) : try await home.groupRanking(games: games)
            if json {
                print(jsonText(report))
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
}
