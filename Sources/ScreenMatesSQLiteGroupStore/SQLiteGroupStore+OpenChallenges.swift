import Foundation
import GRDB
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// Challenges open to everyone who uses the file (level 4): published by the file's owner, joined
// by anyone, each write one immediate transaction that moves the open change number.
//
// The file trusts everyone who can write it: who publishes is checked here, by the program (the
// caller's uid against the file's owner), and a member who writes the file with another program
// can publish, or write any line. Every row is checked as it is read, as a group's are.
extension SQLiteGroupStore {
    public func publishOpenChallenge(_ challenge: Challenge, publisherID: UserID, now: Date)
        async throws(GroupStoreError)
    {
        try GroupStoreRules.check(challenge)
        try requireFileOwner()
        let at = try StoredInstant.milliseconds(now)
        let startsAt = try StoredInstant.milliseconds(ifAny: challenge.startsAt)
        let rule = GroupStoreRules.ruleText(challenge.rule)
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO open_challenge (id, published_by, rule, first_day, days, reward, penalty, starts_at,
                        published_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [
                    challenge.id, publisherID, rule, challenge.firstDay.dayNumber, challenge.days, challenge.reward,
                    challenge.penalty, startsAt, at,
                ])
            guard db.changesCount > 0 else { throw GroupStoreError.challengeExists(challenge.id) }
            try Self.bumpOpen(db)
        }
    }

    public func openChallenges(userID: UserID) async throws(GroupStoreError) -> [OpenChallengeBoard] {
        try await read { db, filter in
            let challenges = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, published_by AS creator_id, rule, first_day, days, reward, penalty, starts_at,
                        published_at AS created_at
                    FROM open_challenge ORDER BY published_at DESC, id
                    """
            ).compactMap { row in
                filter.keep(row, .challenge) { row in StoredOpenChallenge(row: try StoredGroupChallenge(row: row)) }
            }
            var lines: [String: [OpenStanding]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT challenge_id, user_id, display_name, state, days_kept, joined_at, decided_at
                    FROM open_participant ORDER BY challenge_id, joined_at, name_key
                    """)
            {
                guard let id: String = row.readable("challenge_id"),
                    challenges.contains(where: { $0.challenge.id == id })
                else { continue }
                if let line = filter.keep(row, .participant, decode: { try StoredOpenParticipant(row: $0, me: userID) })
                {
                    lines[id, default: []].append(line)
                }
            }
            return challenges.map { shared in
                OpenChallengeBoard(
                    challenge: shared.challenge, publishedAt: shared.publishedAt,
                    participants: lines[shared.challenge.id] ?? [])
            }
        }
    }

    public func joinOpenChallenge(id: String, userID: UserID, name: DisplayName, today: LocalDate, now: Date)
        async throws(GroupStoreError) -> Challenge
    {
        try GroupStoreRules.check(challengeID: id)
        let at = try StoredInstant.milliseconds(now)
        let day = GroupStoreRules.clampedDayNumber(today)
        return try await write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, published_by AS creator_id, rule, first_day, days, reward, penalty, starts_at,
                            published_at AS created_at
                        FROM open_challenge WHERE id = ?
                        """, arguments: [id])
            else { throw GroupStoreError.unknownOpenChallenge(id) }
            var filter = GroupRowFilter()
            guard
                let shared = filter.keep(
                    row, .challenge, decode: { StoredOpenChallenge(row: try StoredGroupChallenge(row: $0)) })
            else {
                let reason = filter.leftOut.first?.reason ?? "it cannot be read"
                throw GroupStoreError.invalidValue(
                    "Challenge \(SafeText.displayable(id)) cannot be right (\(reason)); it cannot be joined.")
            }
            let joined =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM open_participant WHERE challenge_id = ? AND user_id = ?",
                    arguments: [id, userID]) ?? 0
            guard joined == 0 else { return shared.challenge }
            guard day <= shared.challenge.firstDay.dayNumber else { throw GroupStoreError.challengeClosed(id) }
            let taken =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM open_participant WHERE challenge_id = ? AND name_key = ?",
                    arguments: [id, name.uniquenessKey]) ?? 0
            guard taken == 0 else { throw GroupStoreError.nameTakenOnBoard(name, challengeID: id) }
            try db.execute(
                sql: """
                    INSERT INTO open_participant (challenge_id, user_id, display_name, name_key, state, days_kept,
                        joined_at)
                    VALUES (?, ?, ?, ?, 'in', 0, ?)
                    """, arguments: [id, userID, name.value, name.uniquenessKey, at])
            try Self.bumpOpen(db)
            return shared.challenge
        }
    }

    @discardableResult
    public func reportOpenParticipant(_ report: ParticipantReport) async throws(GroupStoreError) -> Bool {
        try GroupStoreRules.check(report)
        let decidedAt = try StoredInstant.milliseconds(ifAny: report.decidedAt)
        return try await write { db in
            let table = "open_participant"
            guard
                let row = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT state, days_kept, joined_at FROM open_participant WHERE challenge_id = ? AND user_id = ?",
                    arguments: [report.challengeID, report.userID])
            else {
                let exists =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM open_challenge WHERE id = ?", arguments: [report.challengeID])
                    ?? 0
                throw exists > 0
                    ? GroupStoreError.notAParticipant(report.challengeID)
                    : GroupStoreError.unknownOpenChallenge(report.challengeID)
            }
            guard let next = try Self.taking(report, decidedAt: decidedAt, over: row, in: table) else { return false }
            try db.execute(
                sql: """
                    UPDATE open_participant SET state = ?, days_kept = ?, decided_at = ?
                    WHERE challenge_id = ? AND user_id = ?
                    """,
                arguments: [
                    next.state.rawValue, next.daysKept, next.state.isDecided ? decidedAt : nil, report.challengeID,
                    report.userID,
                ])
            try Self.bumpOpen(db)
            return true
        }
    }

    public func openChallengesMark(userID: UserID) async throws(GroupStoreError) -> Int64 {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT change_seq FROM open_change WHERE only_row = 1") ?? 0
        }
    }

    /// Moves the open challenges' change number.
    static func bumpOpen(_ db: Database) throws {
        try db.execute(sql: "UPDATE open_change SET change_seq = change_seq + 1 WHERE only_row = 1")
    }

    /// Refuses a caller who does not own the file: the file's owner is who publishes for everyone
    /// who uses it (the directory's permissions decide who those are).
    private func requireFileOwner() throws(GroupStoreError) {
        try Self.requireOwner(ofFileAt: path, uid: getuid())
    }

    /// Refuses `uid` unless it owns the file at `path`.
    static func requireOwner(ofFileAt path: String, uid: uid_t) throws(GroupStoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unavailable(location: path, detail: String(cString: strerror(errno)))
        }
        guard info.st_uid == uid else {
            let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
            throw GroupStoreRules.onlyTheOwnerPublishes(path, owner: SafeText.displayable(owner))
        }
    }
}

extension StoredOpenParticipant {
    /// An `open_participant` row; `me` marks the asker's line (the user id stays here).
    init(row: Row, me: UserID) throws {
        let table = "open_participant"
        let user: String = try row.checked("user_id", in: table)
        self.init(
            challengeID: try row.checked("challenge_id", in: table),
            displayName: try row.checked("display_name", in: table), state: try row.checked("state", in: table),
            daysKept: try row.checked("days_kept", in: table), joinedAt: try row.checked("joined_at", in: table),
            decidedAt: try row.checkedIfPresent("decided_at", in: table), isMe: user == me.value)
    }
}
