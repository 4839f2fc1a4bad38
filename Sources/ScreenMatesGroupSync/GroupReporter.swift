import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

/// The three things reporting to a group store takes, shared by the dashboard's background link
/// and `screenmates sync`: send the profile, send the finished days, fetch the group.
public struct GroupReporter: Sendable {
    let local: LocalStore
    let membership: GroupMembership
    let userID: UserID
    let clock: any AppClock

    public init(local: LocalStore, membership: GroupMembership, userID: UserID, clock: any AppClock) {
        self.local = local
        self.membership = membership
        self.userID = userID
        self.clock = clock
    }

    /// Sends the profile with a fresh version, higher than any sent before from this machine;
    /// joins again if the store has forgotten the member (a store that was reset), and adds the
    /// machine to the member's when the store does not know it.
    func send(_ draft: ProfileDraft, to store: any GroupStore) async throws(GroupStoreError) {
        recordSent(version: try await upload(draft, to: store))
    }

    /// Sends every finished day not yet synced, in one batch; returns how many.
    @discardableResult
    func sendDays(to store: any GroupStore) async throws(GroupStoreError) -> Int {
        let sent = try await uploadDays(to: store)
        markSent(sent)
        return sent.count
    }

    /// The network half of `send`: returns the version sent, for `recordSent`. The profile is this
    /// machine's (`MachineWrites`).
    func upload(_ draft: ProfileDraft, to store: any GroupStore) async throws(GroupStoreError) -> Int64 {
        let version = try nextVersion()
        let profile = draft.profile(userID: userID, version: version, now: clock.now())
        let (code, now) = (membership.code, clock.now())
        try await machineWrites.writing(to: store) { machine throws(GroupStoreError) in
            do throws(GroupStoreError) {
                try await store.upsertProfile(profile, machine: machine)
            } catch {
                guard case .notAMember = error else { throw error }
                _ = try await store.join(code: code, member: profile, machine: machine, now: now)
            }
        }
        return version
    }

    /// `draft` with the member's last active time as the group last showed it when that is later
    /// on the same day: another machine of theirs saw them since. The store keeps the time of
    /// whichever machine wrote last, so a machine reporting an older one would make the member look
    /// idle on everyone's board.
    func lastActiveOfTheMember(_ draft: ProfileDraft, in snapshot: GroupSnapshot?) -> ProfileDraft {
        guard let mine = snapshot?.members.first(where: { $0.userID == userID }), mine.day == draft.day,
            let shown = mine.lastActive, shown > draft.lastActive ?? .distantPast
        else { return draft }
        var draft = draft
        draft.lastActive = shown
        return draft
    }

    /// How this home writes as its machine.
    var machineWrites: MachineWrites { MachineWrites(local: local, userID: userID) }

    /// Notes in the local store that the profile of `version` reached the group.
    func recordSent(version: Int64) {
        try? local.recordProfileSynced(version: version, at: clock.now())
    }

    /// The network half of `sendDays`: returns the days sent, for `markSent`.
    func uploadDays(to store: any GroupStore) async throws(GroupStoreError) -> [LocalDate] {
        guard let days = try? local.unsyncedDays(), !days.isEmpty else { return [] }
        let version = try nextVersion()
        let totals = days.map {
            DayTotal(
                userID: userID, date: $0.date, viceBlocks: $0.viceBlocks, goalBlocks: $0.goalBlocks, version: version,
                productiveBlocks: min(max($0.productiveBlocks, 0), GroupStoreRules.maximumBlocksPerDay))
        }
        let code = membership.code
        try await machineWrites.writing(to: store) { machine throws(GroupStoreError) in
            try await store.upsertDayTotals(totals, code: code, machine: machine)
        }
        return days.map(\.date)
    }

    /// Notes in the local store that these days reached the group.
    func markSent(_ days: [LocalDate]) {
        guard !days.isEmpty else { return }
        try? local.markSynced(days)
    }

    /// Looks at the group: reads what changed since `previous` (read from this store), or the
    /// group whole, its members and the sums the weekly and monthly leaderboards need, with the
    /// rows the store left out of them (`GroupLook`).
    /// The reader's machines are read again when their own row or sums changed (one of their
    /// machines wrote) or on a whole read, and what the others used is kept for the figures
    /// (`OtherMachines`); a look that finds nothing of theirs keeps the count.
    public func look(at store: any GroupStore, today: LocalDate, previous: GroupSnapshot? = nil)
        async throws(GroupStoreError) -> GroupLook
    {
        var look = try await GroupLook.look(
            at: store, code: membership.code, userID: userID, today: today, now: clock.now(), previous: previous)
        let sumsChanged =
            look.snapshot.weekBlocks[userID] != previous?.weekBlocks[userID]
            || look.snapshot.monthBlocks[userID] != previous?.monthBlocks[userID]
        if look.whole || sumsChanged || look.membersRead.contains(where: { $0.userID == userID }) {
            let machines = try? await store.machines(userID: userID)
            look.snapshot.machinesInUse = machines?.filter(\.isInUse).count ?? previous?.machinesInUse
            if let machines {
                await OtherMachines(local: local, code: membership.code, userID: userID).keep(
                    machines, from: store, today: today, readDays: look.whole || sumsChanged)
            }
        } else {
            look.snapshot.machinesInUse = previous?.machinesInUse
        }
        return look
    }

    /// Reads the group whole.
    public func snapshot(from store: any GroupStore, today: LocalDate) async throws(GroupStoreError) -> GroupSnapshot {
        try await look(at: store, today: today).snapshot
    }

    /// Keeps the snapshot in the local store, for the next start and for offline use.
    public func cache(_ snapshot: GroupSnapshot) {
        try? local.saveGroupCache(
            GroupCacheEntry(code: membership.code, snapshot: snapshot.encoded(), fetchedAt: snapshot.fetchedAt))
    }

    private func nextVersion() throws(GroupStoreError) -> Int64 {
        do {
            return try local.nextMemberVersion()
        } catch {
            throw .unavailable(location: local.path, detail: error.message)
        }
    }
}
