import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

// A member's account on PostgreSQL: what a restore brings back and what deleting removes, each
// asked by the member themselves (their id and secret), so nobody restores or deletes another.
extension PostgresGroupStore {
    public func account(userID: UserID) async throws(GroupStoreError) -> MemberAccount {
        let me = try caller(userID)
        let rows = try await perform(OperationContext(userID: userID)) { client in
            try await client.rows(
                """
                SELECT code, daily_goal_blocks, member_count, created_at, display_name, blocks_today, day, streak,
                    last_active, last_updated, version, joined_at, standing_version
                FROM screenmates.my_memberships(\(me.id), \(me.secret))
                """
            )
        }
        var standingVersion: Int64?
        var filter = GroupRowFilter()
        let memberships = try decode("the member's groups") {
            try rows.compactMap { row -> MemberAccount.Membership? in
                let (
                    code, goal, count, createdAt, name, blocks, day, streak, lastActive, lastUpdated, version, joined,
                    standing
                ) = try row.decode(
                    (String, Int64, Int64, Int64, String, Int64, Int64, Int64, Int64?, Int64, Int64, Int64, Int64?)
                        .self)
                standingVersion = standing
                guard
                    let group = filter.keep(
                        StoredGroup(code: code, dailyGoalBlocks: goal, memberCount: count, createdAt: createdAt)),
                    let profile = filter.keep(
                        StoredMember(
                            userID: userID.value, displayName: name, blocksToday: blocks, day: day, streak: streak,
                            lastActive: lastActive, lastUpdated: lastUpdated, version: version))
                else { return nil }
                return MemberAccount.Membership(
                    group: group, profile: profile, joinedAt: StoredInstant.date(milliseconds: joined))
            }
        }
        guard let newest = memberships.first else { return .empty }
        let code = newest.group.code.value
        let totalRows = try await perform(OperationContext(code: newest.group.code, userID: userID)) { client in
            try await client.rows(
                """
                SELECT date, vice_blocks, goal_blocks, version FROM screenmates.my_day_totals(\(me.id), \(me.secret),
                    \(code))
                """
            )
        }
        let totals = try decode("the member's day totals") {
            try totalRows.compactMap { row in
                let (date, vice, goal, version) = try row.decode((Int64, Int64, Int64, Int64).self)
                return filter.keep(
                    StoredDayTotal(
                        userID: userID.value, date: date, viceBlocks: vice, goalBlocks: goal, version: version))
            }
        }
        filter.report()
        return MemberAccount(memberships: memberships, dayTotals: totals, standingVersion: standingVersion)
    }

    @discardableResult
    public func deleteAccount(userID: UserID) async throws(GroupStoreError) -> Int {
        let me = try caller(userID)
        let rows = try await perform(OperationContext(userID: userID)) { client in
            try await client.writeRows("SELECT screenmates.delete_account(\(me.id), \(me.secret))")
        }
        readers.forget(userID)
        return try decode("deleting the account") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to deleting an account") }
            return Int(clamping: try row.decode(Int64.self))
        }
    }
}

// The owner's side of an upgrade: the claims waiting, and approving one. Only the store's owner
// may call these (the server grants them to nobody else).
extension PostgresGroupStore {
    public func pendingClaims() async throws(GroupStoreError) -> [IdentityClaim] {
        let rows = try await performAsOwner { client in
            try await client.rows(
                """
                SELECT user_id, coalesce(names, ''), role_name, fingerprint,
                    (extract(epoch FROM claimed_at) * 1000)::bigint, claimants
                FROM screenmates.pending_claims()
                """
            )
        }
        return try decode("the claims") {
            try rows.map { row in
                let (user, names, role, fingerprint, at, count) = try row.decode(
                    (String, String, String, String, Int64, Int64).self)
                return IdentityClaim(
                    userID: try Self.userID(user), holds: SafeText.displayable(names), role: SafeText.displayable(role),
                    fingerprint: fingerprint, claimedAt: StoredInstant.date(milliseconds: at),
                    claimants: Int(clamping: count))
            }
        }
    }

    /// Binds `userID` to the claim `role` made, the one with `fingerprint` when given.
    public func approveClaim(userID: UserID, role: String, fingerprint: String?) async throws(GroupStoreError)
        -> ClaimApproval
    {
        let id = userID.value
        let rows = try await performAsOwner { client in
            try await client.writeRows("SELECT screenmates.approve_claim(\(id), \(role), \(fingerprint))")
        }
        let answer = try decode("approving a claim") {
            guard let row = rows.first else { throw UnreadableValue(what: "no answer to approving a claim") }
            return try row.decode(String.self)
        }
        guard let approval = ClaimApproval(rawValue: answer) else {
            throw .unusable(location: address.description, detail: "approving a claim answered \"\(answer)\"")
        }
        return approval
    }

    /// Runs a call only the store's owner may make (the server grants its functions to nobody
    /// else): any other login is told so, whatever language the server speaks.
    private func performAsOwner<T: Sendable>(_ body: @escaping @Sendable (PostgresClient) async throws -> T)
        async throws(GroupStoreError) -> T
    {
        let location = address.description
        return try await perform(OperationContext()) { client in
            do {
                return try await body(client)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
                throw GroupStoreError.identityRefused(
                    "Only the group store's owner may see and approve claims: connect as the role that owns the "
                        + "database (\(location)).")
            }
        }
    }
}
