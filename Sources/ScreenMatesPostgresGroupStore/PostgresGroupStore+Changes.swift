import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

/// How a member follows a group on a server: its change numbers, what changed since one, and the
/// signal that it may have changed (`PostgresChangeFeed`).
extension PostgresGroupStore {
    public func changeMark(code: GroupCode) async throws(GroupStoreError) -> Int64 {
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows("SELECT screenmates.change_mark(\(me.id), \(me.secret), \(code.value))")
        }
        let mark = try decode("the change mark") {
            guard let row = rows.first else { throw UnreadableValue(what: "no change mark") }
            return try row.decode(Int64?.self)
        }
        guard let mark else { throw .unknownCode(code) }
        return mark
    }

    public func changeMarks(code: GroupCode) async throws(GroupStoreError) -> GroupChangeMarks {
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                "SELECT change_seq, removed_seq FROM screenmates.change_marks(\(me.id), \(me.secret), \(code.value))"
            )
        }
        let marks = try decode("the change marks") {
            try rows.first.map { row in
                let (mark, removal) = try row.decode((Int64, Int64).self)
                return GroupChangeMarks(mark: mark, lastRemoval: removal)
            }
        }
        guard let marks else { throw .unknownCode(code) }
        return marks
    }

    public func gamesMarks(code: GroupCode) async throws(GroupStoreError) -> GroupGamesMarks? {
        let me = try reader(code)
        let rows = try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                "SELECT change_seq, removed_seq, games_seq FROM screenmates.games_marks(\(me.id), \(me.secret), \(code.value))"
            )
        }
        let marks = try decode("the games' change marks") {
            try rows.first.map { row in
                let (mark, removal, games) = try row.decode((Int64, Int64, Int64).self)
                return GroupGamesMarks(marks: GroupChangeMarks(mark: mark, lastRemoval: removal), games: games)
            }
        }
        guard let marks else { throw .unknownCode(code) }
        return marks
    }

    /// One call (`group_changes_and_games_after`; none when the feed's last beat read it ahead,
    /// see `ChangesReadAhead`): the marks, then what changed, checked row by row as `members` and
    /// `blockSums` check theirs, then the games' change number.
    public func readChanges(
        code: GroupCode, after: Int64, weekDays: ClosedRange<LocalDate>?, monthDays: ClosedRange<LocalDate>?
    ) async throws(GroupStoreError) -> GroupChanges {
        func bounds(_ days: ClosedRange<LocalDate>?) -> (Int64?, Int64?) {
            guard let days else { return (nil, nil) }
            return (
                Int64(GroupStoreRules.clampedDayNumber(days.lowerBound)),
                Int64(GroupStoreRules.clampedDayNumber(days.upperBound))
            )
        }
        let (weekFirst, weekLast) = bounds(weekDays)
        let (monthFirst, monthLast) = bounds(monthDays)
        let question = ReadAhead.Question(
            after: after, weekFirst: weekFirst, weekLast: weekLast, monthFirst: monthFirst, monthLast: monthLast)
        let me = try reader(code)
        // Read ahead at the beat that signalled this look, when following by asking.
        let rows: [PostgresRow]
        if let kept = readAhead.take(question, code: code, at: .now) {
            rows = kept
        } else {
            rows = try await changesRows(code: code, question: question, as: me)
        }
        var filter = GroupRowFilter()
        let changes = try decode("what changed in the group") { () throws -> GroupChanges? in
            var changes: GroupChanges?
            for row in rows {
                let (
                    kind, user, name, blocksToday, day, streak, lastActive, lastUpdated, version, blocks, date, vice,
                    goal
                ) =
                    try row.decode(
                        (
                            String, String?, String?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?,
                            Int64?, Int64?, Int64?
                        ).self)
                switch kind {
                case "marks":
                    guard let blocks, let version else { throw UnreadableValue(what: "the change marks") }
                    changes = GroupChanges(marks: GroupChangeMarks(mark: blocks, lastRemoval: version))
                case "member":
                    guard let user, let name, let blocksToday, let day, let streak, let lastUpdated, let version else {
                        throw UnreadableValue(what: "a changed member")
                    }
                    if let member = filter.keep(
                        StoredMember(
                            userID: user, displayName: name, blocksToday: blocksToday, day: day, streak: streak,
                            lastActive: lastActive, lastUpdated: lastUpdated, version: version))
                    {
                        changes?.members.append(member)
                    }
                case "week", "month":
                    guard let user else { throw UnreadableValue(what: "a changed sum") }
                    if let blocks, let id = try? UserID(validating: user) {
                        let sum = Int(clamping: max(0, blocks))
                        if kind == "week" { changes?.weekBlocks[id] = sum } else { changes?.monthBlocks[id] = sum }
                    } else {
                        _ = filter.keep(
                            StoredDayTotal(
                                userID: user, date: date ?? .min, viceBlocks: vice ?? .min, goalBlocks: goal ?? .min,
                                version: version ?? 0))
                    }
                case "games":
                    guard let blocks else { throw UnreadableValue(what: "the games' change number") }
                    changes?.games = blocks
                default:
                    throw UnreadableValue(what: "a change of a kind this version does not know")
                }
            }
            return changes
        }
        filter.report()
        guard let changes else { throw .unknownCode(code) }
        readAhead.read(code, question: question, reaching: changes.marks.mark)
        return changes
    }

    /// The rows of one `group_changes_and_games_after`: the marks first, then what changed, then
    /// the games' change number.
    private func changesRows(
        code: GroupCode, question: ReadAhead.Question, as me: Caller
    ) async throws(GroupStoreError) -> [PostgresRow] {
        let q = question
        return try await perform(OperationContext(code: code)) { client in
            try await client.rows(
                """
                SELECT kind, user_id, display_name, blocks_today, day, streak, last_active, last_updated, version,
                    blocks, date, vice_blocks, goal_blocks
                FROM screenmates.group_changes_and_games_after(\(me.id), \(me.secret), \(code.value), \(q.after),
                    \(q.weekFirst), \(q.weekLast), \(q.monthFirst), \(q.monthLast))
                """
            )
        }
    }

    /// The feed's question at each beat when it follows by asking: the group's change number,
    /// read with what the group's look will ask next when there is one (`ChangesReadAhead`),
    /// whose rows are then kept for that look when the number moved.
    func followedMark(code: GroupCode) async throws(GroupStoreError) -> Int64 {
        guard let question = readAhead.nextQuestion(code) else { return try await changeMark(code: code) }
        let me = try reader(code)
        let rows = try await changesRows(code: code, question: question, as: me)
        // Only the first row, the marks: the rest is decoded by the look that takes them.
        let marks = try decode("the change marks") { () throws -> GroupChangeMarks? in
            guard let row = rows.first else { return nil }
            let cells = row.makeRandomAccess()
            guard try cells[0].decode(String.self) == "marks" else {
                throw UnreadableValue(what: "what changed, without the change marks first")
            }
            return GroupChangeMarks(mark: try cells[9].decode(Int64.self), lastRemoval: try cells[8].decode(Int64.self))
        }
        guard let marks else { throw .unknownCode(code) }
        if marks.mark != question.after {
            readAhead.keep(
                rows, answering: question, mark: marks.mark, lastRemoval: marks.lastRemoval, code: code, at: .now)
        }
        return marks.mark
    }

    /// Backed by LISTEN on one dedicated connection (see `PostgresChangeFeed`): it yields when
    /// the group's channel is listened to — at first and after every reconnect, so the consumer
    /// catches up on what it may have missed — and on every notification.
    public func changes(code: GroupCode) -> AsyncStream<Void> {
        feed.watch(code)
    }
}
