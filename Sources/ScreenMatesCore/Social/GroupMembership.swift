/// The group the user belongs to, as the local store remembers it: the code, and the group's
/// daily goal, which replaces the user's own goal while they are a member.
public struct GroupMembership: Hashable, Sendable, Codable {
    public var code: GroupCode
    public var dailyGoalBlocks: Int

    public init(code: GroupCode, dailyGoalBlocks: Int) {
        self.code = code
        self.dailyGoalBlocks = dailyGoalBlocks
    }
}
