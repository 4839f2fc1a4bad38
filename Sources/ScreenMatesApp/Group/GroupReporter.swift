import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

/// The three things reporting to a group store takes, shared by the dashboard's background link
/// and `screenmates sync`: send the profile, send the finished days, fetch the group.
struct GroupReporter: Sendable {
    let local: LocalStore
    let membership: GroupMembership
    let userID: String
    let clock: any AppClock

    /// Sends the profile with a fresh version, higher than any sent before from this machine;
    /// joins again if the store has forgotten the member (a store that was reset).
    func send(_ draft: ProfileDraft, to store: any GroupStore) async throws(GroupStoreError) {
        let version = try nextVersion()
        let profile = draft.profile(userID: userID, version: version, now: clock.now())
        do {
            try await store.upsertProfile(profile)
        } catch {
            guard case .notAMember = error else { throw error }
            _ = try await store.join(code: membership.code, member: profile, now: clock.now())
        }
        try? local.recordProfileSynced(version: version, at: clock.now())
    }

    /// Sends every finished day not yet synced, in one batch; returns how many.
    @discardableResult
    func sendDays(to store: any GroupStore) async throws(GroupStoreError) -> Int {
        guard let days = try? local.unsyncedDays(), !days.isEmpty else { return 0 }
        let version = try nextVersion()
        let totals = days.map {
            DayTotal(
                userID: userID, date: $0.date, viceBlocks: $0.viceBlocks, goalBlocks: $0.goalBlocks, version: version)
        }
        try await store.upsertDayTotals(totals, code: membership.code)
        try? local.markSynced(days.map(\.date))
        return days.count
    }

    /// Fetches the group, its members and the totals the leaderboards need, and caches them.
    func snapshot(from store: any GroupStore, today: LocalDate) async throws(GroupStoreError) -> GroupSnapshot {
        guard let group = try await store.group(code: membership.code, userID: userID, now: clock.now()) else {
            throw .unknownCode(membership.code)
        }
        let members = try await store.members(code: membership.code)
        let totals = try await store.dayTotals(
            code: membership.code, days: GroupSnapshot.firstTotalDay(today: today)...today)
        let snapshot = GroupSnapshot(group: group, members: members, totals: totals, fetchedAt: clock.now())
        try? local.saveGroupCache(
            GroupCacheEntry(code: membership.code, snapshot: snapshot.encoded(), fetchedAt: snapshot.fetchedAt))
        return snapshot
    }

    private func nextVersion() throws(GroupStoreError) -> Int64 {
        do {
            return try local.nextMemberVersion()
        } catch {
            throw .unavailable(location: local.path, detail: error.message)
        }
    }
}
