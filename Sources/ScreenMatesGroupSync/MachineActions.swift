import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// A member's machines (`screenmates devices`): listing them with what each used today, renaming
/// one, removing one (its past days stay counted), and adding this one again. Each acts as the
/// member the home's identity names, against the group store of the home's group.
public struct MachineActions: Sendable {
    public let local: LocalStore
    public let location: GroupStoreLocation
    public let clock: any AppClock

    public init(local: LocalStore, location: GroupStoreLocation, clock: any AppClock) {
        self.local = local
        self.location = location
        self.clock = clock
    }

    /// The machine actions of `home`, against the group store `groupStore` finds for it.
    public static func open(home: HomeDirectory, groupStore: GroupStoreChoice, timeZone: TimeZoneSource)
        throws(AppError) -> MachineActions
    {
        try home.requireData()
        let (store, clock, location) = try groupStore.open(home: home, speed: nil, startAt: nil, timeZone: timeZone)
        return MachineActions(local: store, location: location, clock: clock)
    }

    /// What `devices` shows.
    public struct Listing: Sendable {
        /// This home's machine.
        public var this: StoredMachine
        /// The member's machines as the group store has them, this one too once it has written; empty
        /// outside a group.
        public var machines: [MemberMachine]
        /// The group, if the home is in one.
        public var group: GroupCode?
        /// Machines a member may have in use.
        public var limit = GroupStoreRules.machinesPerMember
        /// The hour this home's day starts at: the machines' days are on the member's calendar.
        public var dayStartHour = 0

        /// Whether `machine` is this home's.
        public func isThis(_ machine: MemberMachine) -> Bool { machine.id == this.id }
    }

    /// This home's machine and, in a group, the member's machines.
    public func list() async throws(AppError) -> Listing {
        let (userID, group) = try member()
        let this = try writes(userID).machineOrAppError()
        guard let group else { return Listing(this: this, machines: [], group: nil) }
        let machines = try await using { store throws(GroupStoreError) in try await store.machines(userID: userID) }
        var listing = Listing(this: this, machines: machines, group: group)
        listing.dayStartHour = (try? local.settings())?.dayStartHour ?? 0
        return listing
    }

    /// Renames the member's machine called `name` (this one or another).
    public func rename(_ name: MachineName, to new: MachineName) async throws(AppError) {
        let (userID, _) = try member()
        let machine = try await named(name, userID: userID)
        try await using { store throws(GroupStoreError) in
            try await store.renameMachine(machine.id, to: new, userID: userID)
        }
        // This home's machine keeps the name it has among the member's, for the next time it is added.
        if var this = try? local.thisMachine(), this.id == machine.id {
            this.name = new
            try? local.setThisMachine(this)
        }
    }

    /// Removes the member's machine called `name`: it writes no more; its days stay counted.
    /// Returns whether it was in use.
    public func remove(_ name: MachineName) async throws(AppError) -> Bool {
        let (userID, _) = try member()
        let machine = try await named(name, userID: userID)
        return try await using { store throws(GroupStoreError) in
            try await store.retireMachine(machine.id, userID: userID)
        }
    }

    /// Adds this home's machine to the member's: after it was removed, as a new machine (a new id,
    /// the same name).
    public func addThis() async throws(AppError) -> (MachineAdded, MachineName) {
        let (userID, _) = try member()
        var this = try writes(userID).machineOrAppError()
        let known = try await using { store throws(GroupStoreError) in try await store.machines(userID: userID) }
        if let mine = known.first(where: { $0.id == this.id }), !mine.isInUse {
            var generator = SystemRandomNumberGenerator()
            this.id = MachineID.random(using: &generator)
            this.adoptsFirst = false
            do {
                try local.setThisMachine(this)
            } catch {
                throw AppError(error)
            }
        }
        let machine = this
        let added = try await using { store throws(GroupStoreError) in
            try await writes(userID).add(machine, to: store)
        }
        return (added.outcome, added.name)
    }

    // MARK: - Helpers

    private func member() throws(AppError) -> (UserID, GroupCode?) {
        let found: UserSettings?
        do {
            found = try local.settings()
        } catch {
            throw AppError(error)
        }
        guard let settings = found else {
            throw AppError("This home has no profile yet: run `screenmates setup` first.")
        }
        return (settings.userID, settings.group?.code)
    }

    private func writes(_ userID: UserID) -> MachineWrites { MachineWrites(local: local, userID: userID) }

    private func named(_ name: MachineName, userID: UserID) async throws(AppError) -> MemberMachine {
        let machines = try await using { store throws(GroupStoreError) in try await store.machines(userID: userID) }
        let matching = machines.filter { $0.name.key == name.key }
        guard let machine = matching.first(where: \.isInUse) ?? matching.first else {
            let names = machines.filter(\.isInUse).map(\.name.value).joined(separator: ", ")
            throw AppError(
                "You have no machine called \(name)" + (names.isEmpty ? "." : "; yours are: \(names)."))
        }
        return machine
    }

    private func using<T: Sendable>(_ body: (any GroupStore) async throws(GroupStoreError) -> T)
        async throws(AppError) -> T
    {
        do {
            return try await location.using(body)
        } catch {
            throw AppError(error.message)
        }
    }
}

extension MachineWrites {
    /// `machine()`, its failure said for the command line.
    func machineOrAppError() throws(AppError) -> StoredMachine {
        do {
            return try machine()
        } catch {
            throw AppError(error.message)
        }
    }
}
