import Foundation

/// The group store's schema on PostgreSQL, in two parts the program applies itself, in one
/// transaction under an advisory lock (so two members starting at once do not both migrate):
///
/// - **levels** (`Schema/Migrations/vN_*.sql`): what cannot be made again — tables, columns,
///   indexes, rows moved — each applied once, in order, and recorded with the oldest client
///   version that may still use the schema it leaves (`compatible_from`): a newer schema that is
///   compatible is used as it is, so adding to the schema never locks out members who have not
///   updated yet;
/// - **functions** (`Schema/Functions/NAME.sql`): every function, with the triggers that call it
///   and its grant, in one file holding its current definition. Every upgrade drops them all
///   (`Schema/reset_functions.sql`) and makes them again from their files, as Flyway's repeatable
///   migrations and Sqitch's reworked changes are made, so a function reads top to bottom in one
///   file and no older level's body is left anywhere. A change to a function therefore needs a
///   new level (a file in `Migrations/`, even one holding only what changed and why): a server
///   already at the newest level is never upgraded again.
///
/// `Tests/ScreenMatesPostgresGroupStoreTests/Schemas/structure.sql` is the whole schema as a fresh install
/// and every upgrade leave it (a normalised `pg_dump --schema-only`), regenerated and compared by
/// `PostgresSchemaStructureTests`: a schema change reads as a diff of that one file.
///
/// Everything lives in the schema `screenmates`. Members never touch its tables: every
/// operation is one call of a `SECURITY DEFINER` function that first verifies the caller (the
/// user id must be bound to the calling login and to the hash of the secret sent with it; a new
/// id is bound on first use), then checks what it is given as every client would (names,
/// ranges, a challenge's rule, days that are today somewhere by the server's clock, quotas; a
/// code must name the group, a reader must be a member, a version must be newer), with a lock
/// timeout, and runs as one transaction. Only the functions whose file grants them may be called
/// by `PUBLIC` (any role allowed to connect to the database); the tables are granted to nobody
/// and have row-level security turned on with no policy, so even a table granted by mistake shows
/// a non-owner no row. Wrong codes are written down by the lookup functions themselves, so the
/// rate limit cannot be skipped by a client.
///
/// Instants are milliseconds since 1970 and dates day numbers (days since 1970-01-01), both
/// `bigint`, exactly as the SQLite store keeps them. Every write to a group adds one to its
/// `change_seq` and notifies the group's channel (a random name the program generated, never
/// the code: anyone connected may listen on any channel) with the new value.
enum PostgresGroupSchema {
    /// One level: its number, what it does, and its statements (constant text from a file in
    /// `Schema/Migrations/`, compiled in: nothing in them comes from input).
    struct Migration: Sendable {
        let version: Int
        let summary: String
        /// The oldest client schema version that may still use the schema this migration
        /// leaves (a client refuses only a newer schema that is not compatible with it).
        let compatibleFrom: Int
        let statements: [String]
    }

    /// One function's file: its statements (the function, the triggers that call it, its grant).
    struct Function: Sendable {
        let name: String
        let statements: [String]

        init(_ name: String, _ file: [UInt8]) {
            self.name = name
            self.statements = PostgresGroupSchema.statements(of: file)
        }
    }

    /// Guards the migration transaction; any constant shared by every ScreenMates version.
    static let migrationLockKey: Int64 = 0x5343_5245_454E_4D54  // "SCREENMT"

    /// What runs before the levels, in the same transaction. Names in statements are qualified,
    /// and the transaction's search path holds only the system catalogue: nothing anyone else
    /// made runs in the owner's name.
    static let bootstrap: [String] = [
        "SET LOCAL search_path = pg_catalog, pg_temp",
        "CREATE SCHEMA IF NOT EXISTS screenmates",
        """
        CREATE TABLE IF NOT EXISTS screenmates.schema_migration (
            version integer PRIMARY KEY,
            summary text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        "REVOKE ALL ON screenmates.schema_migration FROM PUBLIC",
    ]

    static var latestVersion: Int { migrations.last!.version }

    static let migrations: [Migration] = [
        Migration(
            version: 1, summary: "groups, members, day totals, failed attempts, the API", compatibleFrom: 1,
            statements: statements(of: PackageResources.v1_groups_sql)),
        // Added only tables, columns with defaults and functions: the first version's clients
        // kept working with it.
        Migration(
            version: 2, summary: "group challenges, coins, the weekly settlement, the compatibility rule",
            compatibleFrom: 1, statements: statements(of: PackageResources.v2_games_sql)),
        // Every function took the caller's user id and secret from then on and the old ones,
        // which took an id on trust, went: clients from before had to update.
        Migration(
            version: 3, summary: "member identities, the server's own checks, quotas, restore and delete",
            compatibleFrom: 3, statements: statements(of: PackageResources.v3_identity_sql)),
        // Each level since has kept the third one's clients working: same arguments and answers.
        Migration(
            version: 4, summary: "changes, not snapshots: every row stamped with the change that wrote it",
            compatibleFrom: 3, statements: statements(of: PackageResources.v4_changes_sql)),
        Migration(
            version: 5, summary: "a lock timeout on every function members may call, the schema's level too",
            compatibleFrom: 3, statements: statements(of: PackageResources.v5_lock_timeouts_sql)),
        Migration(
            version: 6, summary: "the most frequent reads verify their caller in one statement",
            compatibleFrom: 3, statements: statements(of: PackageResources.v6_fast_reads_sql)),
        Migration(
            version: 7, summary: "challenges open to everyone on the store, published by its owner",
            compatibleFrom: 3, statements: statements(of: PackageResources.v7_open_challenges_sql)),
        Migration(
            version: 8, summary: "a group keeps only the day totals a screen or the settlement still asks for",
            compatibleFrom: 3, statements: statements(of: PackageResources.v8_retention_sql)),
        Migration(
            version: 9, summary: "the games' own change number, read with the change marks in one call",
            compatibleFrom: 3, statements: statements(of: PackageResources.v9_games_mark_sql)),
        Migration(
            version: 10,
            summary: "a group settled for a day is not settled again that day until something that counts changed",
            compatibleFrom: 3, statements: statements(of: PackageResources.v10_settled_days_sql)),
        Migration(
            version: 11, summary: "a member's question every 2 s is one function, planned once per connection",
            compatibleFrom: 3, statements: statements(of: PackageResources.v11_one_call_poll_sql)),
        Migration(
            version: 12, summary: "a day total in a week no settlement has closed calls for no settlement",
            compatibleFrom: 3, statements: statements(of: PackageResources.v12_open_week_days_sql)),
        Migration(
            version: 13,
            summary:
                "each function as it is, in a file of its own, made again at every upgrade; what one login spends "
                + "is counted for the login, in turns; writes never wait on the notification queue",
            compatibleFrom: 3, statements: statements(of: PackageResources.v13_functions_in_files_sql)),
        Migration(
            version: 14, summary: "a week is settled by the rules it started with: a change waits for the next week",
            compatibleFrom: 3, statements: statements(of: PackageResources.v14_rules_from_next_week_sql)),
        Migration(
            version: 15, summary: "one person, several machines: each machine's days kept, every reader given the sum",
            compatibleFrom: 3, statements: statements(of: PackageResources.v15_machines_sql)),
        Migration(
            version: 16, summary: "each machine's productive blocks, today's and each day's, for its member only",
            compatibleFrom: 3, statements: statements(of: PackageResources.v16_productive_days_sql)),
    ]

    /// Every function of the schema, one file each, grouped by what they are for (the order
    /// does not matter: bodies are checked when called, as `pg_dump` restores them).
    static let functions: [Function] = [
        // The schema's level, which every client asks first.
        Function("schema_version", PackageResources.schema_version_sql),
        Function("schema_level", PackageResources.schema_level_sql),
        // Who calls: identities, claims from before them, membership.
        Function("caller", PackageResources.caller_sql),
        Function("caller_owns_store", PackageResources.caller_owns_store_sql),
        Function("check_user_id", PackageResources.check_user_id_sql),
        Function("verified_marks", PackageResources.verified_marks_sql),
        Function("group_access", PackageResources.group_access_sql),
        Function("lock_group", PackageResources.lock_group_sql),
        Function("lock_my_groups", PackageResources.lock_my_groups_sql),
        Function("claim_identity", PackageResources.claim_identity_sql),
        Function("pending_claims", PackageResources.pending_claims_sql),
        Function("approve_claim", PackageResources.approve_claim_sql),
        Function("lock_login", PackageResources.lock_login_sql),
        Function("retry_after", PackageResources.retry_after_sql),
        Function("record_failed_attempt", PackageResources.record_failed_attempt_sql),
        // The store's policy, and clocks and days.
        Function("policy", PackageResources.policy_sql),
        Function("members_choose_clock", PackageResources.members_choose_clock_sql),
        Function("server_ms", PackageResources.server_ms_sql),
        Function("call_ms", PackageResources.call_ms_sql),
        Function("is_instant", PackageResources.is_instant_sql),
        Function("first_possible_today", PackageResources.first_possible_today_sql),
        Function("last_possible_today", PackageResources.last_possible_today_sql),
        Function("day_of", PackageResources.day_of_sql),
        Function("week_first_day", PackageResources.week_first_day_sql),
        // What every client checks, checked again here.
        Function("refuse", PackageResources.refuse_sql),
        Function("quota", PackageResources.quota_sql),
        Function("name_key", PackageResources.name_key_sql),
        Function("is_name", PackageResources.is_name_sql),
        Function("is_app_id", PackageResources.is_app_id_sql),
        // Generated from the clients' TextRules (TextRulesAgreementTests).
        Function("name_letters", PackageResources.name_letters_sql),
        Function("name_marks", PackageResources.name_marks_sql),
        Function("app_id_scalars", PackageResources.app_id_scalars_sql),
        Function("check_version", PackageResources.check_version_sql),
        Function("check_today", PackageResources.check_today_sql),
        Function("check_profile", PackageResources.check_profile_sql),
        Function("json_keys", PackageResources.json_keys_sql),
        Function("json_count", PackageResources.json_count_sql),
        Function("json_keys_unique", PackageResources.json_keys_unique_sql),
        Function("check_target", PackageResources.check_target_sql),
        Function("check_rule", PackageResources.check_rule_sql),
        Function("check_challenge", PackageResources.check_challenge_sql),
        Function("check_settlement_rules", PackageResources.check_settlement_rules_sql),
        // Change numbers: the group's, stamped on every row written, and the games' and the
        // settlement's own.
        Function("touch", PackageResources.touch_sql),
        Function("notices_skipped", PackageResources.notices_skipped_sql),
        Function("stamp_change", PackageResources.stamp_change_sql),
        Function("stamp_removal", PackageResources.stamp_removal_sql),
        Function("stamp_renamed_parts", PackageResources.stamp_renamed_parts_sql),
        Function("stamp_standing", PackageResources.stamp_standing_sql),
        Function("stamp_games", PackageResources.stamp_games_sql),
        Function("stamp_standing_games", PackageResources.stamp_standing_games_sql),
        Function("stamp_rules_games", PackageResources.stamp_rules_games_sql),
        Function("stamp_settlement", PackageResources.stamp_settlement_sql),
        Function("stamp_rules_settlement", PackageResources.stamp_rules_settlement_sql),
        Function("stamp_day_total_settlement", PackageResources.stamp_day_total_settlement_sql),
        Function("stamp_open_removal", PackageResources.stamp_open_removal_sql),
        // Groups and members.
        Function("create_group", PackageResources.create_group_sql),
        Function("create_group_on", PackageResources.create_group_on_sql),
        Function("find_group", PackageResources.find_group_sql),
        Function("join_group", PackageResources.join_group_sql),
        Function("join_group_on", PackageResources.join_group_on_sql),
        Function("leave_group", PackageResources.leave_group_sql),
        Function("drop_if_empty", PackageResources.drop_if_empty_sql),
        Function("apply_profile", PackageResources.apply_profile_sql),
        Function("upsert_profile", PackageResources.upsert_profile_sql),
        Function("upsert_machine_profile", PackageResources.upsert_machine_profile_sql),
        Function("store_profile_of", PackageResources.store_profile_of_sql),
        Function("group_members", PackageResources.group_members_sql),
        Function("group_channel", PackageResources.group_channel_sql),
        Function("my_memberships", PackageResources.my_memberships_sql),
        Function("delete_account", PackageResources.delete_account_sql),
        // Day totals.
        Function("upsert_day_totals", PackageResources.upsert_day_totals_sql),
        Function("upsert_machine_days", PackageResources.upsert_machine_days_sql),
        Function("store_days_of", PackageResources.store_days_of_sql),
        Function("store_machine_days", PackageResources.store_machine_days_sql),
        Function("group_day_totals", PackageResources.group_day_totals_sql),
        Function("my_day_totals", PackageResources.my_day_totals_sql),
        Function("group_block_sums", PackageResources.group_block_sums_sql),
        Function("block_sums_after", PackageResources.block_sums_after_sql),
        Function("retained_from", PackageResources.retained_from_sql),
        Function("retain_day_totals", PackageResources.retain_day_totals_sql),
        Function("retain_challenges", PackageResources.retain_challenges_sql),
        // A member's machines: each one's days and today, the member's sums from them.
        Function("check_machine", PackageResources.check_machine_sql),
        Function("machine_quota", PackageResources.machine_quota_sql),
        Function("first_machine", PackageResources.first_machine_sql),
        Function("own_machine", PackageResources.own_machine_sql),
        Function("machine_of", PackageResources.machine_of_sql),
        Function("machine_profile", PackageResources.machine_profile_sql),
        Function("member_today", PackageResources.member_today_sql),
        Function("add_machine", PackageResources.add_machine_sql),
        Function("my_machines", PackageResources.my_machines_sql),
        Function("my_machine_days", PackageResources.my_machine_days_sql),
        Function("rename_machine", PackageResources.rename_machine_sql),
        Function("retire_machine", PackageResources.retire_machine_sql),
        // Following a group: its marks, and what changed after a change number.
        Function("change_mark", PackageResources.change_mark_sql),
        Function("change_marks", PackageResources.change_marks_sql),
        Function("games_marks", PackageResources.games_marks_sql),
        Function("members_after", PackageResources.members_after_sql),
        Function("group_members_after", PackageResources.group_members_after_sql),
        Function("group_block_sums_after", PackageResources.group_block_sums_after_sql),
        Function("group_changes_after", PackageResources.group_changes_after_sql),
        Function("group_changes_and_games_after", PackageResources.group_changes_and_games_after_sql),
        Function("group_challenges_after", PackageResources.group_challenges_after_sql),
        Function("challenge_participants_after", PackageResources.challenge_participants_after_sql),
        Function("member_coins_after", PackageResources.member_coins_after_sql),
        Function("week_results_after", PackageResources.week_results_after_sql),
        // Challenges, coins and badges.
        Function("create_group_challenge", PackageResources.create_group_challenge_sql),
        Function("join_group_challenge", PackageResources.join_group_challenge_sql),
        Function("report_participant", PackageResources.report_participant_sql),
        Function("group_challenges", PackageResources.group_challenges_sql),
        Function("challenge_participants", PackageResources.challenge_participants_sql),
        Function("report_standing", PackageResources.report_standing_sql),
        Function("member_coins", PackageResources.member_coins_sql),
        Function("public_ranking", PackageResources.public_ranking_sql),
        // The weekly settlement.
        Function("settlement_schedule", PackageResources.settlement_schedule_sql),
        Function("settlement_rules", PackageResources.settlement_rules_sql),
        Function("change_settlement_rules", PackageResources.change_settlement_rules_sql),
        Function("set_settlement_rules", PackageResources.set_settlement_rules_sql),
        Function("settle_weeks", PackageResources.settle_weeks_sql),
        Function("week_coins", PackageResources.week_coins_sql),
        Function("weeks_per_settlement", PackageResources.weeks_per_settlement_sql),
        Function("week_results", PackageResources.week_results_sql),
        // Challenges open to everyone on the store.
        Function("publish_open_challenge", PackageResources.publish_open_challenge_sql),
        Function("open_challenges", PackageResources.open_challenges_sql),
        Function("open_participants", PackageResources.open_participants_sql),
        Function("join_open_challenge", PackageResources.join_open_challenge_sql),
        Function("report_open_participant", PackageResources.report_open_participant_sql),
        Function("open_changes_mark", PackageResources.open_changes_mark_sql),
    ]

    /// What every upgrade runs after the levels: the functions dropped and made again from their
    /// files, then the grants. A file's `GRANT`s run after every function exists and `PUBLIC`'s
    /// default right to call them is taken back: a function no file grants is called by no member.
    static var functionStatements: [String] {
        let files = functions.flatMap(\.statements)
        let grants = files.filter(isGrant)
        return statements(of: PackageResources.reset_functions_sql)
            + ["SET LOCAL check_function_bodies = off"]
            + files.filter { !isGrant($0) }
            + ["REVOKE ALL ON ALL FUNCTIONS IN SCHEMA screenmates FROM PUBLIC"]
            + grants
    }

    private static func isGrant(_ statement: String) -> Bool {
        statement.split(separator: "\n").first { !$0.hasPrefix("--") }?.hasPrefix("GRANT ") ?? false
    }

    /// The statements of a schema file: separated by a line holding only `;`, so that the
    /// plpgsql bodies keep their own semicolons.
    static func statements(of file: [UInt8]) -> [String] {
        var statements: [String] = []
        var current: [Substring] = []
        for line in String(decoding: file, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces) == ";" {
                let statement = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty && !isOnlyComments(statement) { statements.append(statement) }
                current = []
            } else {
                current.append(line)
            }
        }
        return statements
    }

    private static func isOnlyComments(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
    }
}
