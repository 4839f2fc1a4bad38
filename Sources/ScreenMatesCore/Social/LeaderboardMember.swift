import Foundation

/// A member as the leaderboard shows them: name, vice blocks in the period, streak and when
/// they were last active. `blocks` is `nil`, not zero, for a member without data.
public struct LeaderboardMember: Hashable, Sendable, Codable, Identifiable {
    /// The member's user id.
    public var id: UserID
    public var name: String
    /// Vice blocks in the period; `nil` when the member has no data for it yet (shown as idle,
    /// not as zero, so nobody ranks first just by not syncing).
    public var blocks: Int?
    public var streak: Int
    public var lastActive: Date?
    public var isMe: Bool

    public init(id: UserID, name: String, blocks: Int?, streak: Int, lastActive: Date?, isMe: Bool = false) {
        self.id = id
        self.name = name
        self.blocks = blocks
        self.streak = streak
        self.lastActive = lastActive
        self.isMe = isMe
    }
}
