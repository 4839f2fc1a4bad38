import Foundation
import ScreenMatesCore

/// One look at a group: the group whole at first, then only what changed since the last look,
/// merged into what the reader has (`GroupSnapshot.mark`). What the dashboard's link and
/// `screenmates sync` do at each change signal, so a member's block costs each mate the rows of
/// that member, not the whole group.
///
/// The group is read whole again when a look cannot catch up from the changes: at first, when a
/// row was taken away since (`GroupChangeMarks.canCatchUp`), on a new day (the week's and the
/// month's finished days moved), and when a row could not be right (it is named by the whole read).
public struct GroupLook: Sendable {
    /// The group as it is now.
    public var snapshot: GroupSnapshot
    /// Whether the group was read whole.
    public var whole: Bool
    /// The members' rows this look read (all of them when whole).
    public var membersRead: [MemberProfile]
    /// The block sums this look read, by kind (the week's, the month's).
    public var sumsRead: Int
    /// Whether anything changed since `previous` (a whole read always counts as a change).
    public var changed: Bool
    /// The games' marks, when the store said them with what changed (`GroupChanges.games`): what
    /// lets the games' exchange that follows skip a call of its own.
    public var games: GroupGamesMarks? = nil

    public init(
        snapshot: GroupSnapshot, whole: Bool, membersRead: [MemberProfile], sumsRead: Int, changed: Bool,
        games: GroupGamesMarks? = nil
    ) {
        self.snapshot = snapshot
        self.whole = whole
        self.membersRead = membersRead
        self.sumsRead = sumsRead
        self.changed = changed
        self.games = games
    }

    /// Looks at the group `code` as `userID` on the day `today`: reads only what changed after
    /// `previous` when it can, else the group whole. `previous` must come from this store (its
    /// `mark` is this store's).
    public static func look(
        at store: any GroupStore, code: GroupCode, userID: UserID, today: LocalDate, now: Date,
        previous: GroupSnapshot?
    ) async throws(GroupStoreError) -> GroupLook {
        if let previous, let seen = previous.mark, previous.day == today, previous.leftOut.isEmpty,
            previous.group.code == code
        {
            let (changes, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
                try await store.readChanges(
                    code: code, after: seen, weekDays: GroupSnapshot.finishedDays(of: .week, today: today),
                    monthDays: GroupSnapshot.finishedDays(of: .month, today: today))
            }
            if changes.marks.mark == seen, changes.marks.canCatchUp(from: seen) {
                return GroupLook(
                    snapshot: previous, whole: false, membersRead: [], sumsRead: 0, changed: false,
                    games: changes.gamesMarks)
            }
            if changes.marks.canCatchUp(from: seen), leftOut.isEmpty {
                var snapshot = previous.merging(
                    members: changes.members, weekBlocks: changes.weekBlocks, monthBlocks: changes.monthBlocks)
                snapshot.mark = changes.marks.mark
                snapshot.fetchedAt = now
                return GroupLook(
                    snapshot: snapshot, whole: false, membersRead: changes.members,
                    sumsRead: changes.weekBlocks.count + changes.monthBlocks.count, changed: true,
                    games: changes.gamesMarks)
            }
        }
        let marks = try await store.changeMarks(code: code)
        var whole = try await read(store, code: code, userID: userID, today: today, now: now)
        whole.snapshot.mark = marks.mark
        return whole
    }

    /// The group whole: its row, every member, the week's and the month's sums.
    private static func read(
        _ store: any GroupStore, code: GroupCode, userID: UserID, today: LocalDate, now: Date
    ) async throws(GroupStoreError) -> GroupLook {
        let (snapshot, leftOut) = try await LeftOutRows.collecting { () async throws(GroupStoreError) in
            guard let group = try await store.group(code: code, userID: userID, now: now) else {
                throw .unknownCode(code)
            }
            let members = try await store.members(code: code)
            var snapshot = GroupSnapshot(group: group, members: members, day: today, fetchedAt: now)
            if let days = GroupSnapshot.finishedDays(of: .week, today: today) {
                snapshot.weekBlocks = try await store.blockSums(code: code, days: days)
            }
            if let days = GroupSnapshot.finishedDays(of: .month, today: today) {
                snapshot.monthBlocks = try await store.blockSums(code: code, days: days)
            }
            return snapshot
        }
        var complete = snapshot
        complete.leftOut = leftOut
        return GroupLook(
            snapshot: complete, whole: true, membersRead: complete.members,
            sumsRead: complete.weekBlocks.count + complete.monthBlocks.count, changed: true)
    }
}

extension GroupSnapshot {
    /// The snapshot with rows changed since merged in: a member's new row replaces their old one
    /// where it was (a newcomer goes last, as members are in the order they joined), a member's
    /// new sums replace theirs. Nothing is taken away: a removal means reading the group whole.
    public func merging(members changed: [MemberProfile], weekBlocks: [UserID: Int], monthBlocks: [UserID: Int])
        -> GroupSnapshot
    {
        var merged = self
        var position: [UserID: Int] = [:]
        for (index, member) in members.enumerated() { position[member.userID] = index }
        for member in changed {
            if let index = position[member.userID] {
                merged.members[index] = member
            } else {
                position[member.userID] = merged.members.count
                merged.members.append(member)
                merged.group.memberCount += 1
            }
        }
        merged.weekBlocks.merge(weekBlocks) { _, new in new }
        merged.monthBlocks.merge(monthBlocks) { _, new in new }
        return merged
    }
}
