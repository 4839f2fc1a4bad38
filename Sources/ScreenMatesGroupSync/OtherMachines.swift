import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

/// What the member's other machines used, from the group store into the local store, where the
/// figures count it in (`FiguresReader`): so the person's day, on each of their machines, is the
/// sum of all of them.
///
/// Their today comes with the member's machines (`GroupStore.machines`), which the link reads when
/// the member's own row changed. Their finished days (`machineDayTotals`, as far back as the store
/// keeps days) are read on a whole look, when the member's week or month sums changed, and when one
/// of the other machines reported a day the local store has not seen: what a machine that rolled
/// over or came back online sends.
struct OtherMachines: Sendable {
    let local: LocalStore
    let code: GroupCode
    let userID: UserID

    /// Keeps what `machines` (just read) and, when `readDays` or a machine moved on to a new day,
    /// their finished days say of the machines other than this one.
    func keep(_ machines: [MemberMachine], from store: any GroupStore, today: LocalDate, readDays: Bool) async {
        // A home that has not drawn its machine yet has not written as one: what it wrote before
        // machines is the `first` machine's. Its first write draws it; the next look keeps.
        guard let mine = try? local.thisMachine() else { return }
        // What the older versions' machine wrote is this home's own when it takes that machine over
        // (and was, if it took it over already, or it was removed first).
        let others = machines.filter { $0.id != mine.id && !($0.id == nil && mine.adoptsFirst) && $0.day != nil }
        let kept = (try? local.otherMachinesLatestDays()) ?? [:]
        guard !others.isEmpty else {
            // One machine: nothing to keep, and nothing written to find that out.
            if !kept.isEmpty { _ = try? local.keepOtherMachineDays([], replacing: nil) }
            return
        }
        let latest = others.compactMap { machine in
            machine.day.map {
                OtherMachineDay(
                    machine: Self.key(machine.id), date: $0, viceBlocks: machine.blocksToday, goalBlocks: 0,
                    productiveBlocks: machine.productiveToday ?? 0)
            }
        }
        let current = latest.filter { $0.date == today }
        let first = GroupStoreRules.retainedFrom(today: today)
        // A machine's newest day, in the days the store keeps, that is not kept here yet.
        let movedOn = latest.contains { day in
            (first...today).contains(day.date) && kept[day.machine].map { $0 < day.date } ?? true
        }
        guard readDays || movedOn,
            let totals = try? await store.machineDayTotals(
                code: code, userID: userID, days: first...today.adding(days: -1))
        else {
            _ = try? local.keepOtherMachineDays(current, replacing: today...today)
            return
        }
        let keys = Set(others.map { Self.key($0.id) })
        var finished = totals.filter { keys.contains(Self.key($0.machine)) }.map {
            OtherMachineDay(
                machine: Self.key($0.machine), date: $0.date, viceBlocks: $0.viceBlocks, goalBlocks: $0.goalBlocks,
                productiveBlocks: $0.productiveBlocks ?? 0)
        }
        // A day a machine reported that it has not sent as finished yet: what it said of it counts.
        let sent = Set(finished.map { [$0.machine, $0.date.iso8601] })
        finished += latest.filter {
            $0.date >= first && $0.date < today && !sent.contains([$0.machine, $0.date.iso8601])
        }
        _ = try? local.keepOtherMachineDays(finished + current, replacing: first...today)
    }

    /// How the local store names a machine: its id, or `first`.
    static func key(_ id: MachineID?) -> String { id?.value ?? "first" }
}
