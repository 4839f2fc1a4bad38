import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// The ranking by coins (`CoinRanking`).
@Suite struct CoinRankingTests {
    /// Property 17: the ranking by coins puts more coins first (then more badges), ranks count
    /// who is strictly ahead, and the order the standings come in does not matter.
    @Test func theCoinRankingIsOrdered() async {
        let standings = Generator<[CoinStanding], Shrink.None<[CoinStanding]>> { rng in
            (0..<Int.random(in: 0...15, using: &rng)).map { index in
                CoinStanding(
                    userID: UserID("u\(index)"), name: ["ana", "bo", "Cy"].randomElement(using: &rng)!,
                    coins: Int.random(in: 0...5, using: &rng) * 10, badges: Int.random(in: 0...2, using: &rng),
                    isMe: index == 0)
            }
        }
        await propertyCheck(count: 100, input: standings) { standings in
            let ranked = CoinRanking.rank(standings)
            #expect(Set(ranked.map(\.standing.userID)) == Set(standings.map(\.userID)))
            for (a, b) in zip(ranked, ranked.dropFirst()) {
                #expect((-a.standing.coins, -a.standing.badges) <= (-b.standing.coins, -b.standing.badges))
            }
            for entry in ranked {
                let ahead = standings.filter {
                    ($0.coins, $0.badges) > (entry.standing.coins, entry.standing.badges)
                }.count
                #expect(entry.rank == ahead + 1)
            }
            #expect(CoinRanking.rank(standings.shuffled()).map(\.standing) == ranked.map(\.standing))
        }
    }
}
