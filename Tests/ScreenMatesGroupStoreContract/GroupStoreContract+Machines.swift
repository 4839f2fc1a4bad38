import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

/// One person, several machines: each machine's days and today kept apart, every other reader
/// given the member's sum, counted once whatever the order and however often a day is sent.
extension GroupStoreContract {
    static let machines: [Check] = [
        Check("two machines' days and todays add up, once, for every reader") {
            try await twoMachinesAddUp($0.fresh)
        },
        Check("machines' days in any order, any number of times, equal the sum of the newest") {
            try await anyOrderEqualsTheModel($0.fresh)
        },
        Check("a machine offline for days sends them late and they add up, settled on the sum") {
            try await anOfflineMachineCatchesUp($0.fresh)
        },
        Check("each machine's today and version are its own") { try await todayAndVersionsPerMachine($0.fresh) },
        Check("a rename on one machine sticks while another sends the old name") {
            try await aRenameSticks($0.fresh)
        },
        Check("machines are added once, renamed, and removed with their days kept") {
            try await machinesAreKept($0.fresh)
        },
        Check("a member has at most 4 machines in use and 16 in all") { try await machineQuotas($0.fresh) },
        Check("the first machine is the older versions', and is taken over once") {
            try await theFirstMachineIsAdopted($0.fresh)
        },
        Check("leaving drops a member's machines' days; deleting the account their machines") {
            try await leavingAndDeletingTakeMachinesAlong($0.fresh)
        },
        Check("a machine's productive blocks go to its member alone") {
            try await productiveBlocksAreTheMembersAlone($0.fresh)
        },
    ]

    /// What a machine says of its productive blocks, today's and each day's, its member reads back
    /// with that machine; a machine that says none leaves them unsaid; no other reader gets them,
    /// and a count beyond a day's is refused.
    static func productiveBlocksAreTheMembersAlone(_ makeStore: GroupStoreFactory) async throws {
        let (store, group) = try await anaOnTwoMachines(makeStore)
        let yesterday = today.adding(days: -1)
        var total = day(ana.userID, yesterday, vice: 3, version: 2)
        total.productiveBlocks = 5
        try await store.upsertDayTotals([total], code: group.code, machine: laptop)
        try await store.upsertDayTotals(
            [day(ana.userID, yesterday, vice: 2, version: 2)], code: group.code, machine: desk)
        var onLaptop = ana
        (onLaptop.blocksToday, onLaptop.productiveToday, onLaptop.version) = (1, 6, 7)
        #expect(try await store.upsertProfile(onLaptop, machine: laptop))

        let machines = try await store.machines(userID: ana.userID)
        #expect(machines.map(\.productiveToday) == [6, nil])
        let days = try await store.machineDayTotals(code: group.code, userID: ana.userID, days: yesterday...yesterday)
        #expect(days.map(\.productiveBlocks) == [5, nil])
        #expect(days.map(\.viceBlocks) == [3, 2])
        // The group reads vice sums only.
        #expect(try await store.members(code: group.code).allSatisfy { $0.productiveToday == nil })
        let read = try await store.dayTotals(code: group.code, days: yesterday...yesterday)
        #expect(read.map(\.viceBlocks) == [5] && read.allSatisfy { $0.productiveBlocks == nil })

        // An older day changes nothing.
        total.version = 1
        total.productiveBlocks = 9
        try await store.upsertDayTotals([total], code: group.code, machine: laptop)
        #expect(
            try await store.machineDayTotals(code: group.code, userID: ana.userID, days: yesterday...yesterday)
                .first?.productiveBlocks == 5)
        // Beyond a day: refused, nothing stored.
        total.version = 3
        total.productiveBlocks = 1441
        #expect(
            await invalidValue { try await store.upsertDayTotals([total], code: group.code, machine: laptop) } != nil)
        onLaptop.version = 8
        onLaptop.productiveToday = -1
        #expect(await invalidValue { _ = try await store.upsertProfile(onLaptop, machine: laptop) } != nil)
        #expect(try await store.machines(userID: ana.userID).first?.productiveToday == 6)
    }

    package static let laptop = try! MachineID(validating: String(repeating: "a", count: 32))
    package static let desk = try! MachineID(validating: String(repeating: "b", count: 32))
    package static func machineName(_ text: String) -> MachineName { try! MachineName(validating: text) }

    /// A store with ana's group, bo in it, and ana's laptop and desk added.
    private static func anaOnTwoMachines(_ makeStore: GroupStoreFactory) async throws -> (any GroupStore, Group) {
        let store = try await makeStore()
        try await store.addMachine(laptop, name: machineName("laptop"), userID: ana.userID, adoptingFirst: false)
        try await store.addMachine(desk, name: machineName("desk"), userID: ana.userID, adoptingFirst: false)
        let group = try await store.createGroup(dailyGoalBlocks: 8, creator: ana, machine: laptop, now: start)
        _ = try await store.join(code: group.code, member: bo, now: start)
        return (store, group)
    }

    /// What `body` was refused with as `.invalidValue`; nil when it went through (any other error
    /// is recorded).
    private static func invalidValue(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch {
            if let refused = error as? GroupStoreError, case .invalidValue(let message) = refused { return message }
            Issue.record("refused with \(error)")
            return nil
        }
    }

    static func twoMachinesAddUp(_ makeStore: GroupStoreFactory) async throws {
        let (store, group) = try await anaOnTwoMachines(makeStore)
        let yesterday = today.adding(days: -1)
        try await store.upsertDayTotals(
            [day(ana.userID, yesterday, vice: 7, version: 2), day(ana.userID, today, vice: 7, version: 2)],
            code: group.code, machine: laptop)
        try await store.upsertDayTotals(
            [day(ana.userID, yesterday, vice: 4, version: 1), day(ana.userID, today, vice: 4, version: 1)],
            code: group.code, machine: desk)
        var onLaptop = ana
        onLaptop.blocksToday = 7
        onLaptop.version = 5
        var onDesk = ana
        onDesk.blocksToday = 4
        onDesk.version = 2
        #expect(try await store.upsertProfile(onLaptop, machine: laptop))
        #expect(try await store.upsertProfile(onDesk, machine: desk))

        // bo reads ana as one row, with the sum, by every read.
        let members = try await store.members(code: group.code)
        #expect(members.map(\.userID) == [ana.userID, bo.userID])
        #expect(members.first?.blocksToday == 11)
        let totals = try await store.dayTotals(code: group.code, days: yesterday...today)
        #expect(totals.filter { $0.userID == ana.userID }.map(\.viceBlocks) == [11, 11])
        #expect(totals.filter { $0.userID == ana.userID }.allSatisfy { $0.goalBlocks == 8 })
        #expect(try await store.blockSums(code: group.code, days: yesterday...today)[ana.userID] == 22)
        let changes = try await store.readChanges(
            code: group.code, after: 0, weekDays: yesterday...today, monthDays: nil)
        #expect(changes.members.first { $0.userID == ana.userID }?.blocksToday == 11)
        #expect(changes.weekBlocks[ana.userID] == 22)
        // ana's own machines, each with its own today.
        let machines = try await store.machines(userID: ana.userID)
        #expect(machines.map(\.id) == [laptop, desk])
        #expect(machines.map(\.blocksToday) == [7, 4])
        #expect(machines.map(\.name) == [machineName("laptop"), machineName("desk")])
        // … and each machine's own days, which only she reads.
        let own = try await store.machineDayTotals(code: group.code, userID: ana.userID, days: yesterday...today)
        #expect(own.map(\.machine) == [laptop, desk, laptop, desk])
        #expect(own.map(\.viceBlocks) == [7, 4, 7, 4])
        #expect(own.map(\.date) == [yesterday, yesterday, today, today])
        #expect(try await store.machineDayTotals(code: group.code, userID: bo.userID, days: yesterday...today).isEmpty)
        await expectError(.unknownCode(unusedCode)) {
            _ = try await store.machineDayTotals(code: unusedCode, userID: ana.userID, days: today...today)
        }

        // Sent again, from either machine: nothing changes, not even the change mark.
        let mark = try await store.changeMark(code: group.code)
        try await store.upsertDayTotals([day(ana.userID, today, vice: 4, version: 1)], code: group.code, machine: desk)
        try await store.upsertDayTotals(
            [day(ana.userID, today, vice: 7, version: 2)], code: group.code, machine: laptop)
        #expect(try await !store.upsertProfile(onDesk, machine: desk))
        #expect(try await store.changeMark(code: group.code) == mark)
        #expect(try await store.blockSums(code: group.code, days: yesterday...today)[ana.userID] == 22)

        // A machine of another member's is nothing of ana's, and the reverse.
        await expectError(.unknownMachine(laptop)) {
            try await store.upsertDayTotals([day(bo.userID, today, vice: 9)], code: group.code, machine: laptop)
        }
        #expect(try await store.machines(userID: bo.userID).map(\.id) == [nil])
        #expect(try await store.members(code: group.code).last?.blocksToday == bo.blocksToday)
    }

    static func anyOrderEqualsTheModel(_ makeStore: GroupStoreFactory) async throws {
        struct Write: Hashable {
            var machine: MachineID?
            var date: LocalDate
            var version: Int64
            var vice: Int
            var goal: Int
        }
        var generator = SeededGenerator(seed: 0x4D41_4348)
        for round in 0..<3 {
            let (store, group) = try await anaOnTwoMachines(makeStore)
            let dates = (0..<3).map { today.adding(days: -$0) }
            var writes = (0..<24).map { _ in
                Write(
                    machine: [laptop, desk, nil].randomElement(using: &generator)!,
                    date: dates.randomElement(using: &generator)!, version: Int64.random(in: 1...6, using: &generator),
                    vice: [0, 1, 5, 300, 900, 1440].randomElement(using: &generator)!,
                    goal: Int.random(in: 0...96, using: &generator))
            }
            writes += writes.prefix(8)
            writes.shuffle(using: &generator)
            // The model: per machine and date, the first-sent of the highest version; summed, capped.
            var newest: [String: Write] = [:]
            for write in writes {
                let key = "\(write.machine?.value ?? "first") \(write.date)"
                if let held = newest[key], held.version >= write.version { continue }
                newest[key] = write
            }
            for write in writes {
                try await store.upsertDayTotals(
                    [
                        DayTotal(
                            userID: ana.userID, date: write.date, viceBlocks: write.vice, goalBlocks: write.goal,
                            version: write.version)
                    ], code: group.code, machine: write.machine)
            }
            let stored = try await store.dayTotals(code: group.code, days: dates.last!...dates.first!)
                .filter { $0.userID == ana.userID }
            for date in dates {
                let held = newest.values.filter { $0.date == date }
                let total = stored.first { $0.date == date }
                #expect(
                    total?.viceBlocks == (held.isEmpty ? nil : GroupStoreRules.sumOfBlocks(held.map(\.vice))),
                    "round \(round), \(date)")
                #expect(total?.goalBlocks == held.map(\.goal).max(), "round \(round), \(date)")
            }
            // Everything again, in another order: no change mark moves.
            let mark = try await store.changeMark(code: group.code)
            for write in writes.shuffled(using: &generator) {
                try await store.upsertDayTotals(
                    [
                        DayTotal(
                            userID: ana.userID, date: write.date, viceBlocks: write.vice, goalBlocks: write.goal,
                            version: write.version)
                    ], code: group.code, machine: write.machine)
            }
            #expect(try await store.changeMark(code: group.code) == mark, "round \(round)")
        }
    }

    static func anOfflineMachineCatchesUp(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        try await store.addMachine(laptop, name: machineName("laptop"), userID: ana.userID, adoptingFirst: false)
        try await store.addMachine(desk, name: machineName("desk"), userID: ana.userID, adoptingFirst: false)
        let group = try await settlingGroup(in: store)
        let week = (0..<7).map { monday.adding(days: $0) }
        let closing = monday.adding(days: 8)
        // The laptop sends six days of the week, 5 blocks each (under the goal of 8); its last day
        // is late, so the week waits for it (pending).
        for (index, date) in week.prefix(6).enumerated() {
            try await store.upsertDayTotals(
                [day(ana.userID, date, vice: 5, version: Int64(index + 1))], code: group.code, machine: laptop)
        }
        try await store.settleWeeks(code: group.code, today: closing, now: noon(closing))
        var anas = try await store.weekResults(code: group.code, weeks: monday...monday).first {
            $0.userID == ana.userID
        }
        #expect(anas?.status == .pending)
        // The desk was offline all week: its days come at once, out of order, twice; then the
        // laptop's last day.
        let late = week.reversed().map { day(ana.userID, $0, vice: 5, version: 1) }
        try await store.upsertDayTotals(late, code: group.code, machine: desk)
        try await store.upsertDayTotals(late.shuffled(), code: group.code, machine: desk)
        try await store.upsertDayTotals(
            [day(ana.userID, week[6], vice: 5, version: 7)], code: group.code, machine: laptop)
        #expect(try await store.blockSums(code: group.code, days: week[0]...week[6])[ana.userID] == 70)
        // The week is settled on the sums: 5 + 5 blocks against a goal of 8 is a day over, every day.
        try await store.settleWeeks(code: group.code, today: closing, now: noon(closing, plus: 60))
        anas = try await store.weekResults(code: group.code, weeks: monday...monday).first { $0.userID == ana.userID }
        #expect(anas?.status == .settled)
        #expect(anas?.tally.overDays == 7)
        #expect(anas?.tally.keptDays == 0)
    }

    static func todayAndVersionsPerMachine(_ makeStore: GroupStoreFactory) async throws {
        let (store, group) = try await anaOnTwoMachines(makeStore)
        var onLaptop = ana
        onLaptop.blocksToday = 6
        onLaptop.version = 100
        #expect(try await store.upsertProfile(onLaptop, machine: laptop))
        // The desk is still on yesterday: it adds nothing to today.
        var onDesk = ana
        onDesk.day = today.adding(days: -1)
        onDesk.blocksToday = 9
        onDesk.version = 2
        #expect(try await store.upsertProfile(onDesk, machine: desk))
        var anaRow = try await store.members(code: group.code).first
        #expect(anaRow?.blocksToday == 6)
        #expect(anaRow?.day == today)
        // The laptop's version 100 does not hold the desk back, and the desk's own older one is stale.
        onDesk.day = today
        onDesk.blocksToday = 2
        onDesk.version = 3
        #expect(try await store.upsertProfile(onDesk, machine: desk))
        var stale = onDesk
        stale.blocksToday = 40
        stale.version = 1
        #expect(try await !store.upsertProfile(stale, machine: desk))
        anaRow = try await store.members(code: group.code).first
        #expect(anaRow?.blocksToday == 8)
        #expect(anaRow?.version == 100)
    }

    static func aRenameSticks(_ makeStore: GroupStoreFactory) async throws {
        let (store, group) = try await anaOnTwoMachines(makeStore)
        var onDesk = ana
        onDesk.version = 2
        #expect(try await store.upsertProfile(onDesk, machine: desk))
        var renamed = ana
        renamed.displayName = name("anna")
        renamed.version = 3
        #expect(try await store.upsertProfile(renamed, machine: laptop))
        // The desk has not heard of it yet and sends "ana" again, newer: the name stays.
        onDesk.blocksToday = 5
        onDesk.version = 4
        #expect(try await store.upsertProfile(onDesk, machine: desk))
        #expect(try await store.members(code: group.code).first?.displayName == name("anna"))
        // A name another member has is refused, and changes nothing of ana's.
        var clash = renamed
        clash.displayName = name("BO")
        clash.version = 5
        let before = try await store.members(code: group.code)
        let machines = try await store.machines(userID: ana.userID)
        await expectError(.nameTaken(name("BO"))) { try await store.upsertProfile(clash, machine: desk) }
        #expect(try await store.members(code: group.code) == before)
        #expect(try await store.machines(userID: ana.userID) == machines)
    }

    static func machinesAreKept(_ makeStore: GroupStoreFactory) async throws {
        let (store, group) = try await anaOnTwoMachines(makeStore)
        #expect(
            try await store.addMachine(laptop, name: machineName("other"), userID: ana.userID, adoptingFirst: false)
                == .known)
        let third = try MachineID(validating: String(repeating: "c", count: 32))
        await expectError(.machineNameTaken(machineName("LAPTOP"))) {
            try await store.addMachine(third, name: machineName("LAPTOP"), userID: ana.userID, adoptingFirst: false)
        }
        await expectError(.unknownMachine(third)) {
            try await store.upsertDayTotals([day(ana.userID, today, vice: 1)], code: group.code, machine: third)
        }
        try await store.renameMachine(desk, to: machineName("desktop"), userID: ana.userID)
        await expectError(.machineNameTaken(machineName("Laptop"))) {
            try await store.renameMachine(desk, to: machineName("Laptop"), userID: ana.userID)
        }
        // Removed, the desk's day and today still count; it writes no more.
        try await store.upsertDayTotals([day(ana.userID, today, vice: 4)], code: group.code, machine: desk)
        var onDesk = ana
        onDesk.blocksToday = 4
        onDesk.version = 2
        try await store.upsertProfile(onDesk, machine: desk)
        #expect(try await store.retireMachine(desk, userID: ana.userID))
        #expect(try await !store.retireMachine(desk, userID: ana.userID))
        try await store.upsertDayTotals([day(ana.userID, today, vice: 3)], code: group.code, machine: laptop)
        #expect(try await store.dayTotals(code: group.code, days: today...today).first?.viceBlocks == 7)
        await expectError(.machineRetired(machineName("desktop"))) {
            try await store.upsertDayTotals(
                [day(ana.userID, today, vice: 9, version: 9)], code: group.code, machine: desk)
        }
        onDesk.version = 3
        await expectError(.machineRetired(machineName("desktop"))) {
            try await store.upsertProfile(onDesk, machine: desk)
        }
        await expectError(.machineRetired(machineName("desktop"))) {
            try await store.addMachine(desk, name: machineName("desk"), userID: ana.userID, adoptingFirst: false)
        }
        let listed = try await store.machines(userID: ana.userID)
        #expect(listed.map(\.name) == [machineName("laptop"), machineName("desktop")])
        #expect(listed.map(\.isInUse) == [true, false])
        // A removed machine's name is free again.
        try await store.addMachine(third, name: machineName("desktop"), userID: ana.userID, adoptingFirst: false)
        // The laptop's 3 blocks today (as the group was made) and the removed desk's 4.
        #expect(try await store.members(code: group.code).first?.blocksToday == 7)
    }

    static func machineQuotas(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        _ = try await newGroup(in: store)  // ana's first machine: one in use.
        func machine(_ number: Int) -> MachineID {
            try! MachineID(validating: String(format: "%032x", number))
        }
        for number in 1...3 {
            try await store.addMachine(
                machine(number), name: machineName("m\(number)"), userID: ana.userID, adoptingFirst: false)
        }
        /// What adding a machine was refused with, if it was.
        func refusal(adding number: Int) async -> String? {
            await invalidValue {
                try await store.addMachine(
                    machine(number), name: machineName("m\(number)"), userID: ana.userID, adoptingFirst: false)
            }
        }
        #expect(await refusal(adding: 4)?.contains("(4)") == true, "a fifth machine in use")
        // Removing one frees a place in use, up to 16 kept in all.
        var number = 4
        while number < 20 {
            try await store.retireMachine(machine(number - 1), userID: ana.userID)
            if let message = await refusal(adding: number) {
                #expect(message.contains("(16)"))
                break
            }
            number += 1
        }
        #expect(number == 16)
        #expect(try await store.machines(userID: ana.userID).count == 16)
    }

    static func theFirstMachineIsAdopted(_ makeStore: GroupStoreFactory) async throws {
        let store = try await makeStore()
        let group = try await newGroup(in: store)
        _ = try await store.join(code: group.code, member: bo, now: start)
        // An older version writes as ana's first machine.
        try await store.upsertDayTotals([day(ana.userID, today, vice: 6, version: 3)], code: group.code)
        // bo's new laptop does not adopt: it adds to what his older version writes.
        let bos = try MachineID(validating: String(repeating: "d", count: 32))
        try await store.upsertDayTotals([day(bo.userID, today, vice: 2)], code: group.code)
        #expect(
            try await store.addMachine(bos, name: machineName("laptop"), userID: bo.userID, adoptingFirst: false)
                == .added)
        try await store.upsertDayTotals([day(bo.userID, today, vice: 5)], code: group.code, machine: bos)
        // ana's home updates and takes its first machine over: nothing any reader sees changes.
        let mark = try await store.changeMark(code: group.code)
        #expect(
            try await store.addMachine(laptop, name: machineName("laptop"), userID: ana.userID, adoptingFirst: true)
                == .adopted)
        #expect(try await store.changeMark(code: group.code) == mark)
        let totals = try await store.dayTotals(code: group.code, days: today...today)
        #expect(totals.map(\.viceBlocks) == [6, 7])
        #expect(try await store.machines(userID: ana.userID).map(\.id) == [laptop])
        #expect(try await store.machines(userID: ana.userID).first?.adoptedFirst == true)
        // Its own days replace the first machine's, whatever their versions; an older version no
        // longer writes for ana, and is told to update.
        try await store.upsertDayTotals(
            [day(ana.userID, today, vice: 8, version: 1)], code: group.code, machine: laptop)
        #expect(try await store.dayTotals(code: group.code, days: today...today).first?.viceBlocks == 8)
        let refusal = await invalidValue {
            try await store.upsertDayTotals([day(ana.userID, today, vice: 1, version: 9)], code: group.code)
        }
        #expect(refusal?.contains("update") == true, "the first machine wrote after it was taken over")
        // Adopting again finds no first machine: a machine is added as any other.
        let second = try MachineID(validating: String(repeating: "e", count: 32))
        #expect(
            try await store.addMachine(second, name: machineName("desk"), userID: ana.userID, adoptingFirst: true)
                == .added)
    }

    static func leavingAndDeletingTakeMachinesAlong(_ makeStore: GroupStoreFactory) async throws {
        let (store, group) = try await anaOnTwoMachines(makeStore)
        try await store.upsertDayTotals([day(ana.userID, today, vice: 4)], code: group.code, machine: desk)
        try await store.upsertDayTotals([day(bo.userID, today, vice: 2)], code: group.code)
        try await store.leave(code: group.code, userID: bo.userID)
        _ = try await store.join(code: group.code, member: bo, now: start)
        try await store.upsertDayTotals([day(bo.userID, today, vice: 1, version: 1)], code: group.code)
        // bo's day from before he left is gone: his first machine's day counts from scratch.
        let bos = try await store.dayTotals(code: group.code, days: today...today).first { $0.userID == bo.userID }
        #expect(bos?.viceBlocks == 1)
        #expect(try await store.deleteAccount(userID: ana.userID) == 1)
        #expect(try await store.machines(userID: ana.userID).isEmpty)
        // Read as bo (a server's store reads a group as a member it saw join).
        _ = try await store.join(code: group.code, member: bo, now: start)
        #expect(try await store.dayTotals(code: group.code, days: today...today).map(\.userID) == [bo.userID])
    }
}
