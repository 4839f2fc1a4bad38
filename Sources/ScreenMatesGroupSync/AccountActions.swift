import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// A member's account across machines: bringing it back into a home (`screenmates restore`) and
/// removing it (`screenmates account delete`). Both act as the member the home's identity names
/// (`MemberIdentityFile`), which is what a group store that checks identities asks to see.
public struct AccountActions: Sendable {
    public let home: HomeDirectory
    public let local: LocalStore
    public let location: GroupStoreLocation
    public let clock: any AppClock
    public let timeZone: TimeZoneSource

    public init(
        home: HomeDirectory, local: LocalStore, location: GroupStoreLocation, clock: any AppClock,
        timeZone: TimeZoneSource
    ) {
        self.home = home
        self.local = local
        self.location = location
        self.clock = clock
        self.timeZone = timeZone
    }

    /// The account actions of `home` (which may be new), on the real clock or the one a running
    /// dashboard publishes, against the group store `groupStore` finds for it.
    public static func open(
        home: HomeDirectory, groupStore: GroupStoreChoice, timeZone: TimeZoneSource, speed: Double? = nil,
        startAt: Date? = nil
    ) throws(AppError) -> AccountActions {
        let (store, clock, location) = try groupStore.open(
            home: home, speed: speed, startAt: startAt, timeZone: timeZone)
        return AccountActions(home: home, local: store, location: location, clock: clock, timeZone: timeZone)
    }

    /// What a restore brought back.
    public struct Restored: Sendable {
        public var userID: UserID
        public var name: DisplayName
        public var code: GroupCode
        public var days: Int
        public var streak: Int
        /// The challenges open to all the member had joined, copied back into the home.
        public var openChallenges = 0
        /// This machine's name among the member's machines, and the others they use, when the
        /// store took it (nil when it could not be added now: the next write adds it).
        public var machine: MachineName?
        public var otherMachines: [MachineName] = []

        /// "ana's second machine (laptop; the others: desk)", or nil when it was not added.
        public var machineSentence: String? {
            guard let machine else { return nil }
            let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
            let count = otherMachines.count + 1
            let ordinal = count <= ordinals.count ? ordinals[count - 1] : "\(count)th"
            let others = otherMachines.map(\.value).joined(separator: ", ")
            return "This is \(name)'s \(ordinal) machine (\(machine)"
                + (otherMachines.isEmpty ? ")." : "; the other\(otherMachines.count == 1 ? "" : "s"): \(others)).")
        }
    }

    /// Restores the member from the group store into this home: the identity from `identityFile`
    /// (a copy of `member-identity` from the old machine) or the home's own, then the member's
    /// newest group, name and versions, and the day totals the group holds as history.
    /// `apps` start the profile when the home has none.
    public func restore(identityFile: String?, apps: [TrackedApp]) async throws(AppError) -> Restored {
        let identity = try adopt(identityFile)
        let account: MemberAccount
        do {
            account = try await location.using { store throws(GroupStoreError) in
                try await store.account(userID: identity.userID)
            }
        } catch {
            throw AppError(error.message)
        }
        guard let newest = account.memberships.first else {
            throw AppError(
                "The group store \(location) holds nothing for user id \(identity.userID): no group, no days. "
                    + "Check that this is the store (--group-store) and the identity you used before.")
        }
        // The machine is drawn before the history comes back: what is restored was not this
        // machine's, so it never takes over the older versions' machine.
        let writes = MachineWrites(local: local, userID: identity.userID)
        let machine: StoredMachine
        do {
            machine = try writes.machine()
        } catch {
            throw AppError(error.message)
        }
        let zone = timeZone.current()
        let member = RestoredMember(
            userID: identity.userID, displayName: newest.profile.displayName,
            membership: GroupMembership(
                code: newest.group.code, dailyGoalBlocks: newest.group.dailyGoalBlocks, store: location.description),
            version: account.newestVersion,
            days: account.dayTotals.map {
                RestoredMember.Day(date: $0.date, viceBlocks: $0.viceBlocks, goalBlocks: $0.goalBlocks)
            })
        var restored: Restored
        let calendarNow: DayCalendar
        do {
            let settings = try local.restore(
                member, apps: apps, calendar: DayCalendar(timeZone: zone), now: clock.now())
            let calendar = DayCalendar(timeZone: zone, dayStartHour: settings.dayStartHour)
            _ = try local.rollOver(
                clockDay: calendar.day(containing: clock.now()), calendar: calendar, now: clock.now())
            let streak = try local.history().last?.streakAfter ?? 0
            restored = Restored(
                userID: identity.userID, name: newest.profile.displayName, code: newest.group.code,
                days: account.dayTotals.count, streak: streak)
            calendarNow = calendar
        } catch {
            throw AppError(error)
        }
        // The challenges open to all the member joined come back from their boards (best effort:
        // any later exchange brings them too).
        let open = OpenChallenges(
            local: local, userID: identity.userID, name: newest.profile.displayName, clock: clock,
            calendar: calendarNow)
        _ = try? await location.using { store throws(GroupStoreError) in try await open.exchange(with: store) }
        restored.openChallenges = ((try? local.challenges()) ?? []).filter(\.openToAll).count
        // Added to the member's machines now, so the restore can say which one this is (best
        // effort: the first write adds it otherwise).
        if let added = try? await location.using({ store throws(GroupStoreError) in
            try await writes.add(machine, to: store)
        }) {
            restored.machine = added.name
            restored.otherMachines = added.others.map(\.name)
        }
        return restored
    }

    /// Removes every row of the member's from the group store, then (unless `keepingLocal`)
    /// this home's data: its database and the member's identity. Returns how many groups the
    /// member left.
    public func delete(keepingLocal: Bool) async throws(AppError) -> Int {
        let settings: UserSettings
        do {
            guard let found = try local.settings() else {
                throw AppError("There is no profile in \(home.path): nothing to delete.")
            }
            settings = found
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
        let left: Int
        do {
            left = try await location.using { store throws(GroupStoreError) in
                try await store.deleteAccount(userID: settings.userID)
            }
        } catch {
            throw AppError(error.message)
        }
        if !keepingLocal {
            for name in [
                home.databaseFileName, home.databaseFileName + "-wal", home.databaseFileName + "-shm",
                MemberIdentityFile.fileName,
            ] {
                let path = home.path + "/" + name
                if unlink(path) != 0 && errno != ENOENT {
                    throw AppError("Cannot remove \(path): \(String(cString: strerror(errno))).")
                }
            }
        }
        return left
    }

    /// The identity to restore as: `identityFile` copied into the home (refused when the home
    /// already is another member), else the home's own.
    private func adopt(_ identityFile: String?) throws(AppError) -> MemberIdentityFile.Identity {
        let own = MemberIdentityFile(home: home)
        let existing = try own.read()
        let settings: UserSettings?
        do {
            settings = try local.settings()
        } catch {
            throw AppError(error)
        }
        guard let identityFile else {
            guard let existing else {
                throw AppError(
                    "This home has no member identity (\(own.path)). Give the copy you kept of the old home's "
                        + "`\(MemberIdentityFile.fileName)` file: `screenmates restore --identity FILE`.")
            }
            return existing
        }
        guard let data = FileManager.default.contents(atPath: identityFile) else {
            throw AppError("Cannot read \(identityFile): \(String(cString: strerror(errno))).")
        }
        let given = try MemberIdentityFile.parse(data, path: identityFile)
        if let profile = settings, profile.userID != given.userID {
            throw AppError(
                "This home (\(home.path)) belongs to user id \(profile.userID), not \(given.userID): restore into a "
                    + "new home (`--home DIR`), or move this one aside first.")
        }
        if let existing, existing != given, settings != nil {
            throw AppError(
                "This home already has another member identity (\(own.path)); restore into a new home (`--home DIR`).")
        }
        try own.write(given, replacing: true)
        return given
    }
}
