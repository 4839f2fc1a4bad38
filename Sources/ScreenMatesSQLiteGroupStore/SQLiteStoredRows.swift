import GRDB
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

// The file's rows as the engine-neutral `StoredGroupRow`s every reader checks: each row is
// decoded here (a value of the wrong type — text in an INTEGER column, a NULL — leaves the row
// out like any other fault), then checked by `GroupRowFilter.keep`.

extension GroupRowFilter {
    /// The value of one row of the file, or nil when the row is left out (noted here). `key`
    /// names a row that holds none of the usual ids.
    mutating func keep<Stored: StoredGroupRow>(
        _ row: Row, _ kind: LeftOutRow.Kind, key: String = "", decode: (Row) throws -> Stored
    ) -> Stored.Value? {
        let stored: Stored
        do {
            stored = try decode(row)
        } catch {
            let column = (error as? UnreadableValue)?.column ?? "a value"
            let named = Self.key(of: row)
            leaveOut(
                LeftOutRow(kind, key: named.isEmpty ? key : named, reason: "\(column) holds a value of the wrong kind"))
            return nil
        }
        return keep(stored)
    }

    /// What names a row whose values could not all be read: the ids and dates it holds, as text.
    static func key(of row: Row) -> String {
        ["challenge_id", "id", "user_id", "date", "week"].filter(row.hasColumn).compactMap { column -> String? in
            switch (row[column] as DatabaseValue? ?? .null).storage {
            case .null: return nil
            case .int64(let number) where ["date", "week"].contains(column):
                let days = GroupStoreRules.storableDayNumbers
                return days.contains(Int(clamping: number)) ? LocalDate(dayNumber: Int(number)).iso8601 : String(number)
            case .int64(let number): return String(number)
            case .double(let number): return String(number)
            case .string(let text): return text
            case .blob: return "(bytes)"
            }
        }.joined(separator: " ")
    }
}

extension StoredMember {
    /// A `member` row.
    init(row: Row) throws {
        let table = "member"
        self.init(
            userID: try row.checked("user_id", in: table), displayName: try row.checked("display_name", in: table),
            blocksToday: try row.checked("blocks_today", in: table), day: try row.checked("day", in: table),
            streak: try row.checked("streak", in: table),
            lastActive: try row.checkedIfPresent("last_active", in: table),
            lastUpdated: try row.checked("last_updated", in: table), version: try row.checked("version", in: table))
    }
}

extension StoredDayTotal {
    /// A `day_total` row.
    init(row: Row) throws {
        let table = "day_total"
        self.init(
            userID: try row.checked("user_id", in: table), date: try row.checked("date", in: table),
            viceBlocks: try row.checked("vice_blocks", in: table),
            goalBlocks: try row.checked("goal_blocks", in: table), version: try row.checked("version", in: table))
    }
}

extension StoredGroupChallenge {
    /// A `group_challenge` row.
    init(row: Row) throws {
        let table = "group_challenge"
        self.init(
            id: try row.checked("id", in: table), creatorID: try row.checked("creator_id", in: table),
            rule: try row.checked("rule", in: table), firstDay: try row.checked("first_day", in: table),
            days: try row.checked("days", in: table), reward: try row.checked("reward", in: table),
            penalty: try row.checked("penalty", in: table), startsAt: try row.checkedIfPresent("starts_at", in: table),
            createdAt: try row.checked("created_at", in: table))
    }
}

extension StoredParticipant {
    /// A `challenge_participant` row joined with its member's `display_name`.
    init(row: Row) throws {
        let table = "challenge_participant"
        self.init(
            challengeID: try row.checked("challenge_id", in: table), userID: try row.checked("user_id", in: table),
            displayName: try row.checked("display_name", in: "member"), state: try row.checked("state", in: table),
            daysKept: try row.checked("days_kept", in: table), joinedAt: try row.checked("joined_at", in: table),
            decidedAt: try row.checkedIfPresent("decided_at", in: table))
    }
}

extension StoredCoins {
    /// A `coin_standing` row.
    init(row: Row) throws {
        let table = "coin_standing"
        self.init(
            userID: try row.checked("user_id", in: table), coins: try row.checked("coins", in: table),
            badges: try row.checked("badges", in: table), updatedAt: try row.checked("updated_at", in: table))
    }
}

extension StoredPublicStanding {
    /// A `coin_standing` row of someone who opted in; `me` is the asker's user id.
    init(row: Row, me: String) throws {
        let table = "coin_standing"
        self.init(
            displayName: try row.checked("display_name", in: table), coins: try row.checked("coins", in: table),
            badges: try row.checked("badges", in: table), isMe: try row.checked("user_id", in: table) == me)
    }
}

extension StoredWeekResult {
    /// A `week_result` row.
    init(row: Row) throws {
        let table = "week_result"
        self.init(
            userID: try row.checked("user_id", in: table), week: try row.checked("week", in: table),
            status: try row.checked("status", in: table), keptDays: try row.checked("kept_days", in: table),
            overDays: try row.checked("over_days", in: table), missingDays: try row.checked("missing_days", in: table),
            coins: try row.checked("coins", in: table), rule: try row.checked("rule", in: table),
            settledAt: try row.checkedIfPresent("settled_at", in: table))
    }
}

extension StoredSettlementRules {
    /// The rules' columns of a `group_info` row.
    init(row: Row, code: String) throws {
        let table = "group_info"
        self.init(
            code: code, weekStart: try row.checked("week_start", in: table),
            keptDayCoins: try row.checked("kept_day_coins", in: table),
            overDayCoins: try row.checked("over_day_coins", in: table),
            missingDays: try row.checked("missing_days", in: table))
    }
}

extension StoredRulesChange {
    /// A `rules_change` row, in a group whose weeks start on `weekStart`.
    init(row: Row, weekStart: Int) throws {
        let table = "rules_change"
        self.init(
            code: try row.checked("code", in: table), weekStart: weekStart,
            fromDay: try row.checked("from_day", in: table),
            keptDayCoins: try row.checked("kept_day_coins", in: table),
            overDayCoins: try row.checked("over_day_coins", in: table),
            missingDays: try row.checked("missing_days", in: table))
    }
}

extension StoredMemberMachine {
    /// A `machine` row.
    init(row: Row) throws {
        let table = "machine"
        self.init(
            machineID: try row.checked("machine_id", in: table), name: try row.checked("name", in: table),
            addedAt: try row.checked("added_at", in: table), lastSeen: try row.checked("last_seen", in: table),
            retiredAt: try row.checkedIfPresent("retired_at", in: table),
            adoptedFirst: (try row.checked("adopted_first", in: table) as Int64) != 0,
            blocksToday: try row.checked("blocks_today", in: table), day: try row.checkedIfPresent("day", in: table),
            version: try row.checked("version", in: table),
            productiveToday: try row.checkedIfPresent("productive_today", in: table))
    }
}

extension StoredMachineDayTotal {
    /// A `machine_day_total` row.
    init(row: Row) throws {
        let table = "machine_day_total"
        self.init(
            machineID: try row.checked("machine_id", in: table), date: try row.checked("date", in: table),
            viceBlocks: try row.checked("vice_blocks", in: table),
            goalBlocks: try row.checked("goal_blocks", in: table), version: try row.checked("version", in: table),
            productiveBlocks: try row.checkedIfPresent("productive_blocks", in: table))
    }
}
