/// The group the user belongs to, as the local store remembers it: the code, the group's
/// daily goal, which replaces the user's own goal while they are a member, and the group store
/// it was joined through, so later commands find it without `--group-store`.
public struct GroupMembership: Hashable, Sendable, Codable {
    public var code: GroupCode
    public var dailyGoalBlocks: Int
    /// The group store's file path, or its `postgres://` URL without a password; nil for a
    /// membership recorded before stores were remembered (the default store then applies).
    public var store: String?

    public init(code: GroupCode, dailyGoalBlocks: Int, store: String? = nil) {
        self.code = code
        self.dailyGoalBlocks = dailyGoalBlocks
        self.store = store
    }
}
