/// The group ranking: fewest vice blocks first, ties broken by the longer streak, then by name.
public enum Leaderboard {
    public static func rank(_ members: [LeaderboardMember]) -> [LeaderboardEntry] {
        let active = members.filter { $0.blocks != nil }.sorted(by: ranksBefore)
        let idle = members.filter { $0.blocks == nil }.sorted { byName($0, $1) }
        return active.enumerated().map { LeaderboardEntry(rank: $0.offset + 1, member: $0.element) }
            + idle.map { LeaderboardEntry(rank: nil, member: $0) }
    }

    /// The ranking order between two members with data.
    public static func ranksBefore(_ a: LeaderboardMember, _ b: LeaderboardMember) -> Bool {
        let blocksA = a.blocks ?? Int.max
        let blocksB = b.blocks ?? Int.max
        if blocksA != blocksB { return blocksA < blocksB }
        if a.streak != b.streak { return a.streak > b.streak }
        return byName(a, b)
    }

    private static func byName(_ a: LeaderboardMember, _ b: LeaderboardMember) -> Bool {
        let keyA = a.name.lowercased()
        let keyB = b.name.lowercased()
        if keyA != keyB { return keyA < keyB }
        if a.name != b.name { return a.name < b.name }
        return a.id < b.id
    }
}
