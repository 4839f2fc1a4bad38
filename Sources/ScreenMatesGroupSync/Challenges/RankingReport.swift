import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome

/// A ranking by coins, as `screenmates ranking` prints it: the user's group (the members who
/// shared their coins, and the names of those who have not), or everyone in the group store who
/// opted in. It holds names, coins and badge counts, never an app or a usage figure.
public struct RankingReport: Encodable, Sendable {
    public struct Standing: Encodable, Sendable {
        public var rank: Int
        public var name: String
        public var coins, badges: Int
        public var isMe: Bool
    }

    /// `group` or `public`.
    public var scope: String
    public var total: Int
    @Nullable public var myRank: Int?
    public var standings: [Standing]
    /// Members who have not shared their coins yet (group ranking).
    public var notShared: [String]
    public var offline: Bool

    /// The most standings a public ranking shows.
    public static let publicLimit = GroupStoreRules.publicRankingLimit

    fileprivate static func standings(_ ranked: [(rank: Int, standing: CoinStanding)]) -> [Standing] {
        ranked.map {
            Standing(
                rank: $0.rank, name: $0.standing.name, coins: $0.standing.coins, badges: $0.standing.badges,
                isMe: $0.standing.isMe)
        }
    }
}

extension ChallengeHome {
    /// The group's ranking from `games` (as `games()` read them): every member who shared their
    /// coins; the others by name. Refused outside a group.
    public func groupRanking(games: GamesRead?) async throws(AppError) -> RankingReport {
        guard settings.group != nil else {
            throw AppError("You are not in a group; `screenmates ranking --public` shows everyone who opted in.")
        }
        let names = try await memberNames()
        let coins = games?.snapshot?.coins ?? []
        let standings = coins.compactMap { member -> CoinStanding? in
            guard let name = names[member.userID] else { return nil }
            return CoinStanding(
                userID: member.userID, name: name, coins: member.coins, badges: member.badges,
                isMe: member.userID == settings.userID)
        }
        let ranked = CoinRanking.rank(standings)
        let shared = Set(coins.map(\.userID))
        return RankingReport(
            scope: "group", total: ranked.count, myRank: ranked.first { $0.standing.isMe }?.rank,
            standings: RankingReport.standings(ranked),
            notShared: names.filter { !shared.contains($0.key) }.map(\.value).sorted(), offline: games?.offline ?? true)
    }

    /// The first `limit` of everyone in the group store who opted in, read now.
    public func publicRanking(limit: Int) async throws(AppError) -> RankingReport {
        let location = try groupStore.location(home: home, settings: settings)
        let ranking: PublicRanking
        do {
            let userID = settings.userID
            ranking = try await location.using { store throws(GroupStoreError) in
                try await store.publicRanking(userID: userID, limit: limit)
            }
        } catch {
            throw AppError(error.message)
        }
        return RankingReport(
            scope: "public", total: ranking.total, myRank: ranking.myRank,
            standings: RankingReport.standings(CoinRanking.rank(ranking.standings)), notShared: [], offline: false)
    }
}
