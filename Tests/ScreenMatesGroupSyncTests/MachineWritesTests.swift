import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesGroupSync

/// A home writes to a group store as its machine, against a real group-store file: two homes of
/// one member are two machines whose blocks the group adds up; a home restored on a new machine
/// says which of the member's machines it is and never takes over the older versions' machine; a
/// home that sent to a group before machines takes that machine over with its days.
@Suite struct MachineWritesTests {
    typealias Machines = AccountActionsTests.Machines
    static let (utc, now, today) = (AccountActionsTests.utc, AccountActionsTests.now, AccountActionsTests.today)
    static let apps = AccountActionsTests.apps

    /// ana's home `name`, with her profile and display name.
    static func anasHome(_ machines: Machines, _ name: String) throws -> (HomeDirectory, LocalStore, UserSettings) {
        let (home, local) = try machines.home(name)
        var settings = try local.createProfileIfNeeded(
            userID: UserID("ana23456"), trackingStart: today, apps: apps, now: now)
        settings.displayName = try DisplayName(validating: "ana")
        try local.updateSettings(settings)
        return (home, local, settings)
    }

    static func report(_ blocks: Int, from local: LocalStore, _ settings: UserSettings, to store: any GroupStore)
        async throws
    {
        let membership = try #require(try local.settings()?.group)
        let reporter = GroupReporter(
            local: local, membership: membership, userID: settings.userID, clock: ManualClock(now))
        let draft = ProfileDraft(
            displayName: try #require(settings.displayName), blocksToday: blocks, day: today, streak: 0, lastActive: now
        )
        try await reporter.send(draft, to: store)
    }

    @Test func twoHomesOfOneMemberAreTwoMachinesAndTheGroupSeesTheirSum() async throws {
        let machines = try await Machines()
        let (laptopHome, laptop, settings) = try Self.anasHome(machines, "laptop")
        let keyring = MemberIdentityFile(home: laptopHome)
        let identity = try #require(try keyring.identity(for: settings.userID))
        let actions = GroupActions(
            local: laptop, location: machines.location, clock: ManualClock(Self.now), timeZone: .fixed(Self.utc))
        let group = try await actions.create(goal: 8)
        let bo = MemberProfile(
            userID: UserID("bo234567"), displayName: try DisplayName(validating: "bo"), blocksToday: 1, day: Self.today,
            streak: 0, lastActive: nil, lastUpdated: Self.now, version: 1)
        _ = try await machines.store.join(code: group.code, member: bo, now: Self.now)

        // The laptop's days so far.
        let laptopMachine = try #require(try laptop.thisMachine())
        try await machines.store.upsertDayTotals(
            [-2, -1].map {
                DayTotal(
                    userID: settings.userID, date: Self.today.adding(days: $0), viceBlocks: 6, goalBlocks: 8, version: 1
                )
            }, code: group.code, machine: laptopMachine.id)

        // ana's desk: a new home with a copy of her identity.
        let copy = machines.directory + "/ana-identity-copy"
        try MemberIdentityFile(path: copy).write(identity, replacing: false)
        let (deskHome, desk) = try machines.home("desk")
        let restored = try await machines.actions(deskHome, desk).restore(identityFile: copy, apps: Self.apps)
        let deskMachine = try #require(try desk.thisMachine())
        #expect(laptopMachine.id != deskMachine.id)
        #expect(!deskMachine.adoptsFirst, "a restored home takes nothing over")
        #expect(restored.otherMachines.count == 1)
        #expect(restored.machineSentence?.hasPrefix("This is ana's second machine (") == true, "\(restored)")
        // One host, one name: the second is told apart.
        #expect(restored.machine != restored.otherMachines.first)

        try await Self.report(7, from: laptop, settings, to: machines.store)
        try await Self.report(4, from: desk, try #require(try desk.settings()), to: machines.store)
        let members = try await machines.store.members(code: group.code)
        #expect(members.map(\.displayName.value) == ["ana", "bo"])
        #expect(members.first?.blocksToday == 11, "bo sees ana's sum")
        let listed = try await machines.store.machines(userID: settings.userID)
        #expect(Set(listed.compactMap(\.id)) == [laptopMachine.id, deskMachine.id])
        #expect(listed.allSatisfy { !$0.adoptedFirst })
        #expect(listed.map(\.blocksToday).sorted() == [4, 7])

        // The days the desk restored are the laptop's: never sent as the desk's own, not even to
        // another group.
        #expect(try desk.history().map(\.viceBlocks) == [6, 6])
        try desk.setGroup(
            GroupMembership(code: try GroupCode(validating: "ZZZZ22"), dailyGoalBlocks: 8, store: "elsewhere"))
        #expect(try desk.unsyncedDays().isEmpty)
        try laptop.setGroup(
            GroupMembership(code: try GroupCode(validating: "ZZZZ22"), dailyGoalBlocks: 8, store: "elsewhere"))
        #expect(try laptop.unsyncedDays().isEmpty, "the laptop has no finished day of its own yet")
    }

    @Test func aHomeThatSentBeforeMachinesTakesTheFirstMachineOver() async throws {
        let machines = try await Machines()
        let (_, local, settings) = try Self.anasHome(machines, "laptop")
        // What an older version did: created the group as ana's one machine and sent a day.
        let profile = MemberProfile(
            userID: settings.userID, displayName: try DisplayName(validating: "ana"), blocksToday: 2, day: Self.today,
            streak: 0, lastActive: nil, lastUpdated: Self.now, version: 1)
        let group = try await machines.store.createGroup(dailyGoalBlocks: 8, creator: profile, now: Self.now)
        try await machines.store.upsertDayTotals(
            [
                DayTotal(
                    userID: settings.userID, date: Self.today.adding(days: -1), viceBlocks: 5, goalBlocks: 8, version: 1
                )
            ],
            code: group.code)
        try local.setGroup(GroupMembership(code: group.code, dailyGoalBlocks: 8, store: machines.location.description))
        try local.recordProfileSynced(version: 1, at: Self.now)
        _ = try local.nextMemberVersion()

        // This version draws the home's machine and sends: the machine takes `first` over.
        try await Self.report(3, from: local, settings, to: machines.store)
        let machine = try #require(try local.thisMachine())
        #expect(machine.adoptsFirst)
        let listed = try await machines.store.machines(userID: settings.userID)
        #expect(listed.map(\.id) == [machine.id])
        #expect(listed.first?.adoptedFirst == true)
        #expect(try await machines.store.members(code: group.code).first?.blocksToday == 3)
        let days = try await machines.store.dayTotals(
            code: group.code, days: Self.today.adding(days: -1)...Self.today.adding(days: -1))
        #expect(days.map(\.viceBlocks) == [5], "the day the older version sent is this machine's now")
        // The older version, still running somewhere, is told to update.
        await #expect {
            try await machines.store.upsertDayTotals(
                [DayTotal(userID: settings.userID, date: Self.today, viceBlocks: 9, goalBlocks: 8, version: 9)],
                code: group.code)
        } throws: { error in
            guard case .invalidValue(let message) = error as? GroupStoreError else { return false }
            return message.contains("update it here")
        }
    }
}
