import Foundation
import PropertyBased
import ScreenMatesCore
import ScreenMatesTestSupport
import Testing

@Suite struct LeaderboardTests {
    private static func member(_ name: String, blocks: Int?, streak: Int = 0, id: String? = nil) -> LeaderboardMember {
        LeaderboardMember(id: UserID(id ?? "id-\(name)"), name: name, blocks: blocks, streak: streak, lastActive: nil)
    }

    private static func names(_ entries: [LeaderboardEntry]) -> [String] { entries.map(\.member.name) }

    @Test func fewestBlocksFirst() {
        let ranked = Leaderboard.rank([
            Self.member("cat", blocks: 9), Self.member("ana", blocks: 3), Self.member("bo", blocks: 0),
        ])
        #expect(Self.names(ranked) == ["bo", "ana", "cat"])
        #expect(ranked.map(\.rank) == [1, 2, 3])
    }

    @Test func tiesGoToTheLongerStreak() {
        let ranked = Leaderboard.rank([
            Self.member("ana", blocks: 4, streak: 1), Self.member("zoe", blocks: 4, streak: 7),
            Self.member("bo", blocks: 5, streak: 30),
        ])
        #expect(Self.names(ranked) == ["zoe", "ana", "bo"])
    }

    @Test func thenByNameIgnoringCase() {
        // Plain string order would put "Bob" before "alice" (uppercase sorts first).
        let ranked = Leaderboard.rank([
            Self.member("Bob", blocks: 2, streak: 3), Self.member("alice", blocks: 2, streak: 3),
            Self.member("carl", blocks: 2, streak: 3), Self.member("Ben", blocks: 2, streak: 3),
        ])
        #expect(Self.names(ranked) == ["alice", "Ben", "Bob", "carl"])
        #expect(ranked.map(\.rank) == [1, 2, 3, 4])
    }

    @Test func idleMembersComeLastWithoutARank() {
        let ranked = Leaderboard.rank([
            Self.member("aaron", blocks: nil, streak: 50), Self.member("zed", blocks: 40),
            Self.member("Abe", blocks: nil), Self.member("mia", blocks: 0),
        ])
        // A long streak does not lift an idle member above anyone; idle members are listed by
        // name, case-insensitively.
        #expect(Self.names(ranked) == ["mia", "zed", "aaron", "Abe"])
        #expect(ranked.map(\.rank) == [1, 2, nil, nil])
    }

    @Test func zeroBlocksIsNotIdle() {
        let ranked = Leaderboard.rank([Self.member("idle", blocks: nil), Self.member("zero", blocks: 0)])
        #expect(ranked.map(\.rank) == [1, nil])
        #expect(Self.names(ranked) == ["zero", "idle"])
    }

    @Test func emptyAndAllIdle() {
        #expect(Leaderboard.rank([]).isEmpty)
        let ranked = Leaderboard.rank([Self.member("b", blocks: nil), Self.member("a", blocks: nil)])
        #expect(Self.names(ranked) == ["a", "b"])
        #expect(ranked.allSatisfy { $0.rank == nil })
    }

    @Test func ranksBeforeIsAStrictOrder() {
        let a = Self.member("ana", blocks: 2, streak: 1)
        let b = Self.member("bo", blocks: 3, streak: 9)
        #expect(Leaderboard.ranksBefore(a, b))
        #expect(!Leaderboard.ranksBefore(b, a))
        #expect(!Leaderboard.ranksBefore(a, a))
        let sameEverything = Self.member("ana", blocks: 2, streak: 1, id: "zzzz")
        #expect(Leaderboard.ranksBefore(a, sameEverything) != Leaderboard.ranksBefore(sameEverything, a))
    }

    @Test func keepsTheMemberData() {
        let me = LeaderboardMember(
            id: UserID("u1"), name: "me", blocks: 4, streak: 2, lastActive: Date(timeIntervalSince1970: 5), isMe: true)
        let ranked = Leaderboard.rank([Self.member("x", blocks: 1), me])
        #expect(ranked[1] == LeaderboardEntry(rank: 2, member: me))
    }

    // MARK: Properties

    private static let membersGen = Generator<[LeaderboardMember], Shrink.None<[LeaderboardMember]>> { rng in
        let names = ["ana", "Ana", "bo", "Bo", "cat", "dan", "Émile", "zoe", "名前", "_x"]
        let count = Int.random(in: 0...15, using: &rng)
        return (0..<count).map { index in
            let idle = Int.random(in: 0...4, using: &rng) == 0
            return LeaderboardMember(
                id: UserID("user\(index)"), name: names.randomElement(using: &rng)!,
                blocks: idle ? nil : Int.random(in: 0...6, using: &rng), streak: Int.random(in: 0...4, using: &rng),
                lastActive: nil)
        }
    }

    @Test func rankingIsAPermutationInRankOrder() async {
        await propertyCheck(count: 200, input: Self.membersGen) { members in
            let ranked = Leaderboard.rank(members)
            #expect(ranked.count == members.count)
            #expect(ranked.map(\.member.id).sorted() == members.map(\.id).sorted())
            for entry in ranked {
                #expect(members.contains(entry.member))
            }
            let active = ranked.prefix { $0.member.blocks != nil }
            let idle = ranked.dropFirst(active.count)
            #expect(idle.allSatisfy { $0.member.blocks == nil && $0.rank == nil })
            #expect(active.map(\.rank) == (0..<active.count).map { Optional($0 + 1) })
            for (a, b) in zip(active, active.dropFirst()) {
                #expect(Leaderboard.ranksBefore(a.member, b.member))
                #expect(!Leaderboard.ranksBefore(b.member, a.member))
                #expect(a.member.blocks! <= b.member.blocks!)
            }
        }
    }

    @Test func rankingIgnoresInputOrder() async {
        await propertyCheck(count: 200, input: Self.membersGen, Gen.int(in: 0...Int(UInt32.max))) { members, seed in
            var generator = SeededGenerator(seed: UInt64(seed))
            #expect(Leaderboard.rank(members.shuffled(using: &generator)) == Leaderboard.rank(members))
        }
    }
}
