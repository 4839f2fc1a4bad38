import Foundation
import ScreenMatesCore

/// Where a group's change numbers stand: `mark` (as `changeMark`), and `lastRemoval`, the change
/// that last took a row away (a member who left, with their day totals, challenge parts and week
/// results; a group's challenges with it). A reader that has seen `mark` N may merge the rows
/// changed after N into what it has when `lastRemoval <= N`; else it reads the group whole.
public struct GroupChangeMarks: Hashable, Sendable {
    public var mark: Int64
    public var lastRemoval: Int64

    public init(mark: Int64, lastRemoval: Int64) {
        self.mark = mark
        self.lastRemoval = lastRemoval
    }

    /// Whether a reader that has seen change number `seen` can catch up from the rows changed
    /// after it.
    public func canCatchUp(from seen: Int64) -> Bool { lastRemoval <= seen && seen <= mark }
}

/// Where a group's change numbers stand (`GroupChangeMarks`), with `games`: the change that last
/// changed what its games show (a challenge or a participant written or taken away, a week result,
/// a member's coins and badges, a member joining, leaving or renamed, the settlement rules).
public struct GroupGamesMarks: Hashable, Sendable {
    public var marks: GroupChangeMarks
    public var games: Int64

    public init(marks: GroupChangeMarks, games: Int64) {
        self.marks = marks
        self.games = games
    }

    /// Whether games read complete up to change number `seen` are still complete up to `marks.mark`:
    /// nothing of the games changed after `seen`.
    public func gamesUnchanged(since seen: Int64) -> Bool { games <= seen && seen <= marks.mark }
}

/// What changed in a group after a change number a reader has seen (`GroupStore.readChanges`).
public struct GroupChanges: Hashable, Sendable {
    /// Read before the rows: when they say the reader cannot catch up, the rest is empty.
    public var marks: GroupChangeMarks
    public var members: [MemberProfile]
    public var weekBlocks: [UserID: Int]
    public var monthBlocks: [UserID: Int]
    /// The change number of the last write that changed the group's games, read after the marks,
    /// when the store says it in the same answer (`GroupGamesMarks`); nil when it does not.
    public var games: Int64?

    public init(
        marks: GroupChangeMarks, members: [MemberProfile] = [], weekBlocks: [UserID: Int] = [:],
        monthBlocks: [UserID: Int] = [:], games: Int64? = nil
    ) {
        self.marks = marks
        self.members = members
        self.weekBlocks = weekBlocks
        self.monthBlocks = monthBlocks
        self.games = games
    }

    /// The games' marks this answer holds, when the store said them.
    public var gamesMarks: GroupGamesMarks? { games.map { GroupGamesMarks(marks: marks, games: $0) } }
}

/// How a group store's change signal learns of changes: told by the store at once (inotify on a
/// shared file, LISTEN on a server), or by asking for the change number at a steady pace (a
/// server whose notifications do not reach the client, such as one behind a connection pooler).
public enum ChangeFollowing: Hashable, Sendable, CustomStringConvertible {
    case live
    case polling(every: Duration)

    /// `live`, or `polling every 2 s`: what the debug panel and `status --json` say.
    public var description: String {
        switch self {
        case .live: return "live"
        case .polling(let interval): return "polling every \(interval.components.seconds) s"
        }
    }
}

extension GroupStore {
    /// Told at once, unless a store says otherwise.
    public var following: ChangeFollowing { .live }
}
