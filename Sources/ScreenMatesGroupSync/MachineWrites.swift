import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// How a home writes to a group store as its machine (`ThisMachine`): a write the store refuses
/// because it does not know the machine yet adds it, then goes again, once. Adding names it after
/// the host, with `-2`, `-3` when another of the member's machines in use has that name, and takes
/// over the older versions' machine (`first`) when the home had sent to a group before it drew its
/// machine (`StoredMachine.adoptsFirst`).
struct MachineWrites: Sendable {
    let local: LocalStore
    let userID: UserID

    /// This home's machine, drawn now if it has none.
    func machine() throws(GroupStoreError) -> StoredMachine {
        do {
            return try ThisMachine.current(store: local).machine
        } catch {
            throw .unavailable(location: local.path, detail: error.message)
        }
    }

    /// `write` as this home's machine; when the store does not know the machine, it is added and
    /// `write` goes again.
    func writing<T: Sendable>(
        to store: any GroupStore, _ write: (MachineID) async throws(GroupStoreError) -> T
    ) async throws(GroupStoreError) -> T {
        let machine = try machine()
        do {
            return try await write(machine.id)
        } catch {
            guard case .unknownMachine = error else { throw error }
            try await add(machine, to: store)
            return try await write(machine.id)
        }
    }

    /// How adding a machine came out: how it was added, the name it has among the member's
    /// machines, and their other machines in use.
    struct Added: Sendable {
        var outcome: MachineAdded
        var name: MachineName
        var others: [MemberMachine]
    }

    /// Adds `machine` to the member's machines in `store` under a name none of their others in use
    /// has (a machine the store knew keeps its name).
    @discardableResult
    func add(_ machine: StoredMachine, to store: any GroupStore) async throws(GroupStoreError) -> Added {
        for _ in 0..<3 {
            let machines = try await store.machines(userID: userID)
            let others = machines.filter { $0.isInUse && $0.id != machine.id }
            let name = machines.first { $0.id == machine.id }?.name ?? machine.name.unique(among: others.map(\.name))
            do {
                let outcome = try await store.addMachine(
                    machine.id, name: name, userID: userID, adoptingFirst: machine.adoptsFirst)
                return Added(outcome: outcome, name: name, others: others)
            } catch {
                // Another of the member's machines took the name meanwhile: look again.
                guard case .machineNameTaken = error else { throw error }
            }
        }
        throw .invalidValue("No free name for this machine among your machines; rename one (`screenmates devices`).")
    }
}
