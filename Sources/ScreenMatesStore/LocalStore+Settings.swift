import Foundation
import GRDB
import ScreenMatesCore
import ScreenMatesSQLiteRows

/// The first day tracked and the day the last daily reset ran.
public struct DayState: Hashable, Sendable {
    public var trackingStart: LocalDate
    public var lastReset: LocalDate?
    /// The instant the current day began (recorded by the last reset).
    public var lastResetAt: Date?
    /// Events up to this sequence number are counted in the history; later ones that belong
    /// to archived days are added by the next reconciliation.
    public var historySequence: Int64

    /// The day the next reset counts from: the last reset, or the first tracked day when no
    /// reset has run yet, so that every day since tracking began is archived.
    public var resetBase: LocalDate { lastReset ?? trackingStart }
}

extension LocalStore {
    /// The user's settings, or `nil` before the profile exists (first run).
    public func settings() throws(StoreError) -> UserSettings? {
        try read { db in try Self.settings(db) }
    }

    /// Creates the profile on first run and returns the settings. Safe to call from several
    /// processes at once: the first one wins and the others read its profile.
    public func createProfileIfNeeded(
        userID: UserID, trackingStart: LocalDate, apps: [TrackedApp], now: Date
    ) throws(StoreError) -> UserSettings {
        try write { db in
            if let existing = try Self.settings(db) { return existing }
            return try Self.createProfile(userID: userID, trackingStart: trackingStart, apps: apps, now: now, db)
        }
    }

    static func createProfile(userID: UserID, trackingStart: LocalDate, apps: [TrackedApp], now: Date, _ db: Database)
        throws -> UserSettings
    {
        try db.execute(
            sql: """
                INSERT INTO profile (id, user_id, tracking_start, last_reset, created_at) VALUES (1, ?, ?, ?, ?)
                """, arguments: [userID, trackingStart.iso8601, trackingStart.iso8601, Self.milliseconds(now)])
        try Self.replaceApps(apps, in: db)
        return try Self.settings(db)!
    }

    /// Saves the display name.
    public func setDisplayName(_ name: DisplayName) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE profile SET display_name = ? WHERE id = 1", arguments: [name.value])
        }
    }

    /// Replaces both app lists.
    public func setApps(_ apps: [TrackedApp]) throws(StoreError) {
        try write { db in try Self.replaceApps(apps, in: db) }
    }

    /// Saves the numbers behind the rules, the day-start hour, the notification switches and the
    /// theme.
    public func updateSettings(_ settings: UserSettings) throws(StoreError) {
        guard UserSettings.dayStartHourRange.contains(settings.dayStartHour),
            UsageRules.blockMinutesRange.contains(settings.rules.blockMinutes),
            UsageRules.exchangeRateRange.contains(settings.rules.exchangeRate),
            UsageRules.dailyGoalRange.contains(settings.rules.dailyGoalBlocks),
            settings.pruneKeepDays == 0 || UserSettings.pruneKeepDaysRange.contains(settings.pruneKeepDays)
        else { throw .invalidValue("A setting is out of range.") }
        try write { db in
            try db.execute(
                sql: """
                    UPDATE profile SET display_name = ?, day_start_hour = ?, block_minutes = ?, exchange_rate = ?,
                        daily_goal_blocks = ?, notifications_enabled = ?, notification_bell = ?,
                        notification_desktop = ?, theme = ?, public_ranking = ?, prune_keep_days = ? WHERE id = 1
                    """,
                arguments: [
                    settings.displayName?.value, settings.dayStartHour, settings.rules.blockMinutes,
                    settings.rules.exchangeRate, settings.rules.dailyGoalBlocks, settings.notificationsEnabled,
                    settings.notificationBell, settings.notificationDesktop, settings.theme.rawValue,
                    settings.publicRanking, settings.pruneKeepDays,
                ])
            try Self.replaceApps(settings.apps, in: db)
        }
    }

    /// Forgets what this home has recorded — usage events, day history, notices, challenges,
    /// coins and badges, the leaderboard cache — and the profile's name, apps, group and
    /// settings, in one transaction; a new profile starts on `trackingStart` with `apps`, as on
    /// a first run. The user id and the
    /// member version stay: the group store still knows this user, and takes their next report
    /// as newer than the last one it has. Returns the new settings.
    public func clearLocalData(trackingStart: LocalDate, apps: [TrackedApp], now: Date) throws(StoreError)
        -> UserSettings
    {
        try write { db in
            let kept = try Row.fetchOne(db, sql: "SELECT user_id, member_version FROM profile WHERE id = 1")
            var generator = SystemRandomNumberGenerator()
            let userID: UserID = try kept?.checked("user_id", in: "profile") ?? UserID.random(using: &generator)
            let memberVersion: Int64 = try kept?.checked("member_version", in: "profile") ?? 0
            try db.execute(
                sql: """
                    DELETE FROM usage_event;
                    DELETE FROM day_history;
                    DELETE FROM day_app_usage;
                    DELETE FROM pruned_event;
                    DELETE FROM prune_state;
                    DELETE FROM notice;
                    DELETE FROM group_cache;
                    DELETE FROM game_cache;
                    DELETE FROM seen_app;
                    DELETE FROM challenge;
                    DELETE FROM coin_transaction;
                    DELETE FROM badge;
                    DELETE FROM profile;
                    """)
            try db.execute(
                sql: """
                    INSERT INTO profile (id, user_id, tracking_start, last_reset, created_at, member_version)
                    VALUES (1, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    userID, trackingStart.iso8601, trackingStart.iso8601, Self.milliseconds(now), memberVersion,
                ])
            try Self.replaceApps(apps, in: db)
            return try Self.settings(db)!
        }
    }

    /// Starts a demo's usage anew: the usage events, the day history, the notices, the
    /// challenges, coins and badges (all derived from the usage) and a published clock go, and the days begin again on `trackingStart`; the profile — user id,
    /// name, apps, settings, group and member version — stays, so the demo keeps the person the
    /// first run set up. The caller makes sure no other process has the store open.
    public func startAfresh(trackingStart: LocalDate) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    DELETE FROM usage_event;
                    DELETE FROM day_history;
                    DELETE FROM day_app_usage;
                    DELETE FROM pruned_event;
                    DELETE FROM prune_state;
                    DELETE FROM notice;
                    DELETE FROM challenge;
                    DELETE FROM coin_transaction;
                    DELETE FROM badge;
                    DELETE FROM game_cache;
                    DELETE FROM published_clock;
                    """)
            try db.execute(
                sql: """
                    UPDATE profile SET tracking_start = ?, last_reset = ?, last_reset_at = NULL, history_seq = 0
                    WHERE id = 1
                    """, arguments: [trackingStart.iso8601, trackingStart.iso8601])
        }
    }

    /// The first tracked day and the last reset date.
    public func dayState() throws(StoreError) -> DayState? {
        try read { db in try Self.dayState(db) }
    }

    static func dayState(_ db: Database) throws -> DayState? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT tracking_start, last_reset, last_reset_at, history_seq FROM profile WHERE id = 1")
        else {
            return nil
        }
        let table = "profile"
        guard let start = LocalDate(iso8601: try row.checked("tracking_start", in: table)) else {
            throw UnreadableValue(table: table, column: "tracking_start")
        }
        let lastReset: String? = try row.checkedIfPresent("last_reset", in: table)
        let lastResetAt: Int64? = try row.checkedIfPresent("last_reset_at", in: table)
        return DayState(
            trackingStart: start, lastReset: lastReset.flatMap(LocalDate.init(iso8601:)),
            lastResetAt: lastResetAt.map(date(milliseconds:)),
            historySequence: try row.checkedIfPresent("history_seq", in: table) ?? 0)
    }

    static func settings(_ db: Database) throws -> UserSettings? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM profile WHERE id = 1") else { return nil }
        let table = "profile"
        let storedName: String? = try row.checkedIfPresent("display_name", in: table)
        let apps = try Row.fetchAll(db, sql: "SELECT * FROM tracked_app ORDER BY position").map { row in
            TrackedApp(
                id: try row.checked("id", in: "tracked_app"), name: try row.checked("name", in: "tracked_app"),
                bundleID: try row.checked("bundle_id", in: "tracked_app"),
                category: AppCategory(rawValue: try row.checked("category", in: "tracked_app")) ?? .vice,
                hidden: try row.checked("hidden", in: "tracked_app"))
        }
        var settings = UserSettings(
            userID: try row.checked("user_id", in: table),
            displayName: storedName.flatMap { try? DisplayName(validating: $0) },
            dayStartHour: try row.checked("day_start_hour", in: table),
            rules: UsageRules(
                blockMinutes: try row.checked("block_minutes", in: table),
                exchangeRate: try row.checked("exchange_rate", in: table),
                dailyGoalBlocks: try row.checked("daily_goal_blocks", in: table)),
            notificationsEnabled: try row.checked("notifications_enabled", in: table),
            apps: apps, group: try membership(row))
        if row.hasColumn("theme") {
            settings.theme = ThemeChoice(rawValue: try row.checked("theme", in: table)) ?? .terminal
            settings.notificationBell = try row.checked("notification_bell", in: table)
            settings.notificationDesktop = try row.checked("notification_desktop", in: table)
        }
        if row.hasColumn("public_ranking") {
            settings.publicRanking = try row.checked("public_ranking", in: table)
        }
        if row.hasColumn("prune_keep_days") {
            let days: Int = try row.checked("prune_keep_days", in: table)
            settings.pruneKeepDays = UserSettings.pruneKeepDaysRange.contains(days) ? days : 0
        }
        return settings
    }

    /// The group columns, absent from profiles written before groups existed.
    private static func membership(_ row: Row) throws -> GroupMembership? {
        guard row.hasColumn("group_code"), let text: String = try row.checkedIfPresent("group_code", in: "profile"),
            let code = try? GroupCode(validating: text)
        else { return nil }
        let goal: Int = try row.checkedIfPresent("group_goal_blocks", in: "profile") ?? 8
        let store: String? = row.hasColumn("group_store") ? try row.checkedIfPresent("group_store", in: "profile") : nil
        return GroupMembership(code: code, dailyGoalBlocks: goal, store: store)
    }

    private static func replaceApps(_ apps: [TrackedApp], in db: Database) throws {
        try db.execute(sql: "DELETE FROM tracked_app")
        for (position, app) in apps.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO tracked_app (id, name, bundle_id, category, hidden, position)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING
                    """,
                arguments: [app.id, app.name, app.bundleID, app.category.rawValue, app.hidden, position])
        }
    }
}
