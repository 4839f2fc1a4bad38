import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesGroupSync

/// The group link keeps what a member's other machines used, against a real group-store file: a
/// look reads their today with the member's machines and their finished days when they may have
/// changed, and keeps them where the figures count them in; a member with one machine costs no
/// read more, and the home's own machine is never counted as another.
@Suite struct OtherMachinesLookTests {
    typealias Machines = AccountActionsTests.Machines
    static let (now, today) = (AccountActionsTests.now, AccountActionsTests.today)

    /// ana's laptop in a new group with bo, and her desk restored from her identity.
    static func anaOnTwoMachines(_ machines: Machines) async throws -> (
        laptop: LocalStore, desk: LocalStore, settings: UserSettings, code: GroupCode
    ) {
        let (laptopHome, laptop, settings) = try MachineWritesTests.anasHome(machines, "laptop")
        let identity = try #require(try MemberIdentityFile(home: laptopHome).identity(for: settings.userID))
        let actions = GroupActions(
            local: laptop, location: machines.location, clock: ManualClock(now),
            timeZone: .fixed(AccountActionsTests.utc))
        let group = try await actions.create(goal: 8)
        let bo = MemberProfile(
            userID: UserID("bo234567"), displayName: try DisplayName(validating: "bo"), blocksToday: 1, day: today,
            streak: 0, lastActive: nil, lastUpdated: now, version: 1)
        _ = try await machines.store.join(code: group.code, member: bo, now: now)
        let copy = machines.directory + "/ana-identity-copy"
        try MemberIdentityFile(path: copy).write(identity, replacing: false)
        let (deskHome, desk) = try machines.home("desk")
        _ = try await machines.actions(deskHome, desk).restore(identityFile: copy, apps: MachineWritesTests.apps)
        return (laptop, desk, settings, group.code)
    }

    static func reporter(_ local: LocalStore, _ settings: UserSettings) throws -> GroupReporter {
        GroupReporter(
            local: local, membership: try #require(try local.settings()?.group), userID: settings.userID,
            clock: ManualClock(now))
    }

    @Test func eachMachineKeepsWhatTheOthersUsedTodayAndOnTheirFinishedDays() async throws {
        let machines = try await Machines()
        let (laptop, desk, settings, code) = try await Self.anaOnTwoMachines(machines)
        let deskID = try #require(try desk.thisMachine()).id
        try await MachineWritesTests.report(7, from: laptop, settings, to: machines.store)
        try await MachineWritesTests.report(4, from: desk, settings, to: machines.store)
        try await machines.store.upsertDayTotals(
            [
                DayTotal(
                    userID: settings.userID, date: Self.today.adding(days: -1), viceBlocks: 5, goalBlocks: 8, version: 9
                )
            ],
            code: code, machine: deskID)

        // The laptop's first look is whole: the desk's today and its finished day.
        let laptopLink = try Self.reporter(laptop, settings)
        var look = try await laptopLink.look(at: machines.store, today: Self.today)
        #expect(look.snapshot.machinesInUse == 2)
        var totals = try laptop.otherMachinesTotals()
        #expect(totals[Self.today]?.viceBlocks == 4)
        #expect(totals[Self.today.adding(days: -1)] == OtherMachinesTotal(viceBlocks: 5, goalBlocks: 8))
        #expect(totals.count == 2, "the laptop's own blocks are never another machine's")
        // The desk sees the laptop's.
        _ = try await Self.reporter(desk, settings).look(at: machines.store, today: Self.today)
        #expect(try desk.otherMachinesTotals()[Self.today]?.viceBlocks == 7)

        // The desk uses more: the laptop's next look, which reads only what changed, follows.
        try await MachineWritesTests.report(6, from: desk, settings, to: machines.store)
        let version = try laptop.otherMachinesVersion()
        look = try await laptopLink.look(at: machines.store, today: Self.today, previous: look.snapshot)
        #expect(!look.whole)
        totals = try laptop.otherMachinesTotals()
        #expect(totals[Self.today]?.viceBlocks == 6)
        #expect(try laptop.otherMachinesVersion() > version)

        // A day the desk sends late (it was offline) reaches the laptop with the week's sums.
        try await machines.store.upsertDayTotals(
            [
                DayTotal(
                    userID: settings.userID, date: Self.today.adding(days: -2), viceBlocks: 3, goalBlocks: 8,
                    version: 10)
            ],
            code: code, machine: deskID)
        look = try await laptopLink.look(at: machines.store, today: Self.today, previous: look.snapshot)
        #expect(try laptop.otherMachinesTotals()[Self.today.adding(days: -2)]?.viceBlocks == 3)

        // The laptop sent no finished day: the desk keeps its today alone.
        #expect(try desk.otherMachinesTotals().count == 1)
    }

    @Test func aProfileNeverSaysTheMemberWasLastActiveEarlierThanTheGroupShows() async throws {
        let machines = try await Machines()
        let (laptop, _, settings, _) = try await Self.anaOnTwoMachines(machines)
        let reporter = try Self.reporter(laptop, settings)
        let name = try #require(settings.displayName)
        let (noon, one) = (Self.now.addingTimeInterval(-7200), Self.now.addingTimeInterval(-3600))
        let draft = ProfileDraft(displayName: name, blocksToday: 2, day: Self.today, streak: 0, lastActive: noon)
        var snapshot = try await reporter.snapshot(from: machines.store, today: Self.today)
        let index = try #require(snapshot.members.firstIndex { $0.userID == settings.userID })
        // The desk saw ana at one: the laptop, which last saw her at noon, says one.
        snapshot.members[index].lastActive = one
        #expect(reporter.lastActiveOfTheMember(draft, in: snapshot).lastActive == one)
        // Its own later time, another day's, or no group read yet: as it is.
        snapshot.members[index].lastActive = noon.addingTimeInterval(-60)
        #expect(reporter.lastActiveOfTheMember(draft, in: snapshot) == draft)
        snapshot.members[index].lastActive = one
        snapshot.members[index].day = Self.today.adding(days: -1)
        #expect(reporter.lastActiveOfTheMember(draft, in: snapshot) == draft)
        #expect(reporter.lastActiveOfTheMember(draft, in: nil) == draft)
    }

    @Test func aMemberWithOneMachineKeepsNoOtherMachine() async throws {
        let machines = try await Machines()
        let (_, laptop, settings) = try MachineWritesTests.anasHome(machines, "laptop")
        let actions = GroupActions(
            local: laptop, location: machines.location, clock: ManualClock(Self.now),
            timeZone: .fixed(AccountActionsTests.utc))
        _ = try await actions.create(goal: 8)
        try await MachineWritesTests.report(7, from: laptop, settings, to: machines.store)
        let look = try await Self.reporter(laptop, settings).look(at: machines.store, today: Self.today)
        #expect(look.snapshot.machinesInUse == 1)
        #expect(try laptop.otherMachinesTotals().isEmpty)
        #expect(try laptop.otherMachinesVersion() == 0, "nothing was kept, so nothing moved")
    }
}
