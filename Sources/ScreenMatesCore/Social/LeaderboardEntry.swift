/// A ranked row of the leaderboard: a member and their place. Idle members (no data for the
/// period) have no rank and are listed after everyone ranked.
public struct LeaderboardEntry: Hashable, Sendable, Codable {
    /// 1-based; `nil` for idle members, who are listed after everyone ranked.
    public var rank: Int?
    public var member: LeaderboardMember

    public init(rank: Int?, member: LeaderboardMember) {
        self.rank = rank
        self.member = member
    }
}
