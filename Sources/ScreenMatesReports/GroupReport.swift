import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

/// `screenmates group show`: the group and its members ranked for today, as text or JSON.
public struct GroupReport: Encodable, Sendable {
    /// A member as `status --json` shows them too.
    public typealias Member = StatusReport.Member

    public var code: String
    public var dailyGoalBlocks: Int
    public var memberCount: Int
    public var createdAt: String
    public var fetchedAt: String
    public var offline: Bool
    public var members: [Member]
    /// The rows the group store held that cannot be right, left out of all this, in words.
    public var leftOut: [String]

    public init(snapshot: GroupSnapshot, offline: Bool, local: LocalStore, clock: any AppClock, timeZone: TimeZone) {
        let settings = try? local.settings()
        let today = DayCalendar(timeZone: timeZone, dayStartHour: settings?.dayStartHour ?? 0).day(
            containing: clock.now())
        let userID = settings?.userID
        let members = snapshot.members.map { profile in
            LeaderboardMember(
                id: profile.userID, name: profile.displayName.value,
                blocks: profile.day == today ? profile.blocksToday : nil, streak: profile.streak,
                lastActive: profile.lastActive, isMe: profile.userID == userID)
        }
        code = snapshot.group.code.value
        dailyGoalBlocks = snapshot.group.dailyGoalBlocks
        memberCount = snapshot.members.count
        createdAt = TimeFormat.iso8601(snapshot.group.createdAt)
        fetchedAt = TimeFormat.iso8601(snapshot.fetchedAt)
        self.offline = offline
        leftOut = snapshot.leftOut.map(\.description)
        self.members = Leaderboard.rank(members).map { entry in
            Member(
                id: entry.member.id, name: entry.member.name, rank: entry.rank, blocksUsed: entry.member.blocks,
                streak: entry.member.streak, lastActive: entry.member.lastActive.map(TimeFormat.iso8601),
                isMe: entry.member.isMe)
        }
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    public func text() -> String {
        var lines = [
            "Group \(code) · \(memberCount) member\(memberCount == 1 ? "" : "s") · daily goal \(dailyGoalBlocks) blocks"
                + (offline ? " · offline, cached \(fetchedAt)" : "")
        ]
        for member in members {
            let rank = member.rank.map { String($0).leftPadded(to: 3) } ?? "  -"
            let blocks = member.blocksUsed.map { "\($0)/\(dailyGoalBlocks)" } ?? "idle"
            let name = SafeText.padded(member.name + (member.isMe ? " (you)" : ""), toCells: 26)
            lines.append("\(rank)  \(name) \(blocks.leftPadded(to: 6, with: " "))  streak \(member.streak)")
        }
        if !leftOut.isEmpty {
            lines.append("Left out, as they cannot be right:")
            lines += leftOut.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int, with pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
