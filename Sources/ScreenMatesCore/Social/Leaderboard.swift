import Foundation

/// A member as the leaderboard shows them.
public struct LeaderboardMember: Hashable, Sendable, Codable, Identifiable {
    /// The 8-character user id.
    public var id: String
    public var name: String
    /// Vice blocks in the period; `nil` when the member has no data for it yet (shown as idle,
    /// not as zero, so nobody ranks first just by not syncing).
    public var blocks: Int?
    public var streak: Int
    public var lastActive: Date?
    public var isMe: Bool

    public init(id: String, name: String, blocks: Int?, streak: Int, lastActive: Date?, isMe: Bool = false) {
        self.id = id
        self.name = name
        self.blocks = blocks
        self.streak = streak
        self.lastActive = lastActive
        self.isMe = isMe
    }
}

/// A ranked row.
public struct LeaderboardEntry: Hashable, Sendable, Codable {
    /// 1-based; `nil` for idle members, who are listed after everyone ranked.
    public var rank: Int?
    public var member: LeaderboardMember

    public init(rank: Int?, member: LeaderboardMember) {
        self.rank = rank
        self.member = member
    }
}

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
