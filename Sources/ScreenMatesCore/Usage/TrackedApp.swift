/// An app the user tracks, in one of the two lists.
///
/// A hidden app still counts in the user's own totals, but its name never leaves the machine.
public struct TrackedApp: Hashable, Sendable, Codable, Identifiable {
    /// A short stable id, e.g. `tiktok`.
    public var id: String
    /// The name shown on screen, e.g. `TikTok`.
    public var name: String
    /// A bundle-style identifier, e.g. `com.zhiliaoapp.musically`.
    public var bundleID: String
    public var category: AppCategory
    public var hidden: Bool

    public init(id: String, name: String, bundleID: String, category: AppCategory, hidden: Bool = false) {
        self.id = id
        self.name = name
        self.bundleID = bundleID
        self.category = category
        self.hidden = hidden
    }
}
