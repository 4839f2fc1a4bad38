import ScreenMatesCore
import ScreenMatesGroupStore

/// The group's games as a command read them: from the group store, or as last seen.
public struct GamesRead: Sendable {
    public var snapshot: GroupGamesSnapshot?
    /// The group store was out of reach: the snapshot is the cached one (or none).
    public var offline: Bool

    public init(snapshot: GroupGamesSnapshot?, offline: Bool) {
        self.snapshot = snapshot
        self.offline = offline
    }

    /// The rows the store held that could not be right, left out of the snapshot.
    public var leftOut: [LeftOutRow] { snapshot?.leftOut ?? [] }

    /// For a line under a listing: nil when the store was read.
    public var offlineNote: String? {
        guard offline else { return nil }
        let when = snapshot.map { " (as of \(TimeFormat.iso8601($0.fetchedAt)))" } ?? ""
        return "The group store is out of reach: the group's part is as last seen\(when)."
    }
}
