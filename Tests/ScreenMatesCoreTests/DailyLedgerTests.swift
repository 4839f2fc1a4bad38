import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

@Suite struct DailyLedgerTests {
    private static let morning = Date(timeIntervalSince1970: 1_795_250_000)

    private static func event(
        _ category: AppCategory, minutes: Int, at offset: TimeInterval, id: UInt8 = 0
    ) -> UsageEvent {
        UsageEvent(
            id: uuid(id), appID: category == .vice ? "tiktok" : "anki", category: category, seconds: minutes * 60,
            occurredAt: morning.addingTimeInterval(offset))
    }

    private static func uuid(_ last: UInt8) -> UUID {
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, last))
    }

    /// Random events on one day: few distinct instants so ties (broken by id) are common; seconds
    /// include zero, odd values and the occasional negative one.
    private static let eventGen = Generator<UsageEvent, Shrink.None<UsageEvent>> { rng in
        let category: AppCategory = Bool.random(using: &rng) ? .vice : .productive
        let seconds =
            Int.random(in: 0...10, using: &rng) == 0
            ? Int.random(in: -60...0, using: &rng)
            : Int.random(in: 0...3600, using: &rng)
        let offset = TimeInterval(Int.random(in: 0...20, using: &rng) * 900)
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let id = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return UsageEvent(
            id: id, appID: category.rawValue, category: category, seconds: seconds,
            occurredAt: morning.addingTimeInterval(offset))
    }

    private static let rateGen = Gen.double(in: 0...3)

    // MARK: Examples

    @Test func productiveThenViceSpendsTheBalanceAndOverdraws() {
        let ledger = DailyLedger.fold(
            [Self.event(.productive, minutes: 30, at: 0), Self.event(.vice, minutes: 45, at: 900)], exchangeRate: 1.0)
        #expect(ledger.balanceSeconds == 0)
        #expect(ledger.overdraftSeconds == 15 * 60)
        #expect(ledger.earnedSeconds == 30 * 60)
        #expect(ledger.spentSeconds == 45 * 60)
        #expect(ledger.viceBlocks == 1)
        #expect(ledger.productiveBlocks == 1)
        #expect(ledger.eventCount == 2)
    }

    @Test func viceBeforeAnyEarningIsAllOverdraft() {
        // Same two events, the other way round: the balance cannot go negative first.
        let ledger = DailyLedger.fold(
            [Self.event(.vice, minutes: 45, at: 0), Self.event(.productive, minutes: 30, at: 900)], exchangeRate: 1.0)
        #expect(ledger.overdraftSeconds == 45 * 60)
        #expect(ledger.balanceSeconds == 30 * 60)
    }

    @Test func vicePartlyCoveredByTheBalance() {
        var ledger = DailyLedger()
        var accepted: Bool
        accepted = ledger.apply(Self.event(.productive, minutes: 60, at: 0), exchangeRate: 1.0)
        #expect(accepted)
        #expect(ledger.balanceSeconds == 3600)
        accepted = ledger.apply(Self.event(.vice, minutes: 15, at: 100), exchangeRate: 1.0)
        #expect(accepted)
        #expect(ledger.balanceSeconds == 2700)
        #expect(ledger.overdraftSeconds == 0)
        accepted = ledger.apply(Self.event(.vice, minutes: 15, at: 200), exchangeRate: 1.0)
        #expect(accepted)
        accepted = ledger.apply(Self.event(.vice, minutes: 15, at: 300), exchangeRate: 1.0)
        #expect(accepted)
        accepted = ledger.apply(Self.event(.vice, minutes: 15, at: 400), exchangeRate: 1.0)
        #expect(accepted)
        #expect(ledger.balanceSeconds == 0)
        #expect(ledger.overdraftSeconds == 0)
        accepted = ledger.apply(Self.event(.vice, minutes: 15, at: 500), exchangeRate: 1.0)
        #expect(accepted)
        #expect(ledger.balanceSeconds == 0)
        #expect(ledger.overdraftSeconds == 900)
        #expect(ledger.viceBlocks == 5)
    }

    @Test func exchangeRateScalesEarnings() {
        let events = [Self.event(.productive, minutes: 30, at: 0)]
        #expect(DailyLedger.fold(events, exchangeRate: 1.5).earnedSeconds == 2700)
        #expect(DailyLedger.fold(events, exchangeRate: 0.5).balanceSeconds == 900)
        let nothing = DailyLedger.fold(events, exchangeRate: 0)
        #expect(nothing.earnedSeconds == 0)
        #expect(nothing.balanceSeconds == 0)
        #expect(nothing.productiveBlocks == 1)
    }

    @Test func emptyDay() {
        let ledger = DailyLedger.fold([], exchangeRate: 1)
        #expect(ledger == DailyLedger())
        #expect(ledger.balanceSeconds == 0 && ledger.overdraftSeconds == 0 && ledger.eventCount == 0)
        #expect(ledger.lastApplied == nil)
    }

    @Test func negativeSecondsCountAsZero() {
        var event = Self.event(.vice, minutes: 0, at: 0)
        event.seconds = -500
        let ledger = DailyLedger.fold([Self.event(.productive, minutes: 10, at: 0, id: 1), event], exchangeRate: 1)
        #expect(ledger.spentSeconds == 0)
        #expect(ledger.balanceSeconds == 600)
        #expect(ledger.viceBlocks == 1)
    }

    @Test func simultaneousEventsAreOrderedById() {
        // Same instant: the lower id goes first, whichever arrives first.
        let vice = Self.event(.vice, minutes: 15, at: 0, id: 1)
        let productive = Self.event(.productive, minutes: 15, at: 0, id: 2)
        let a = DailyLedger.fold([vice, productive], exchangeRate: 1)
        let b = DailyLedger.fold([productive, vice], exchangeRate: 1)
        #expect(a == b)
        #expect(a.overdraftSeconds == 900)
        #expect(a.balanceSeconds == 900)
        #expect(a.lastApplied == DailyLedger.OrderKey(productive))
    }

    // MARK: Order

    @Test func applyRefusesAnEarlierEventAndChangesNothing() {
        // (`apply` is mutating, so it runs outside `#expect`.)
        var ledger = DailyLedger()
        var accepted: Bool
        accepted = ledger.apply(Self.event(.productive, minutes: 30, at: 1000, id: 5), exchangeRate: 1)
        #expect(accepted)
        let before = ledger
        let earlier = Self.event(.vice, minutes: 45, at: 500, id: 9)
        #expect(!ledger.canAppend(earlier))
        accepted = ledger.apply(earlier, exchangeRate: 1)
        #expect(!accepted)
        #expect(ledger == before)
        // Same instant with a lower id is also out of order.
        let sameTimeLowerID = Self.event(.vice, minutes: 45, at: 1000, id: 4)
        accepted = ledger.apply(sameTimeLowerID, exchangeRate: 1)
        #expect(!accepted)
        #expect(ledger == before)
        // The same event twice is refused.
        accepted = ledger.apply(Self.event(.productive, minutes: 30, at: 1000, id: 5), exchangeRate: 1)
        #expect(!accepted)
        #expect(ledger == before)
        // Same instant with a higher id comes after it.
        accepted = ledger.apply(Self.event(.vice, minutes: 45, at: 1000, id: 6), exchangeRate: 1)
        #expect(accepted)
        #expect(ledger.overdraftSeconds == 900)
    }

    @Test func applyRefusesAnyEventNotAfterTheLastOne() async {
        let input = zip(Self.eventGen.array(of: 1...20), Self.eventGen, Self.rateGen)
        await propertyCheck(count: 200, input: input) { events, extra, rate in
            var ledger = DailyLedger.fold(events, exchangeRate: rate)
            let before = ledger
            let last = events.max { UsageEvent.inLedgerOrder($0, $1) }!
            let isAfter = UsageEvent.inLedgerOrder(last, extra)
            #expect(ledger.canAppend(extra) == isAfter)
            let accepted = ledger.apply(extra, exchangeRate: rate)
            #expect(accepted == isAfter)
            if !isAfter { #expect(ledger == before) } else { #expect(ledger.eventCount == before.eventCount + 1) }
            // Re-applying any event already in the ledger is refused.
            for event in events {
                let again = ledger.apply(event, exchangeRate: rate)
                #expect(!again)
            }
        }
    }

    @Test func foldIsTheSameForAnyPermutation() async {
        let input = zip(Self.eventGen.array(of: 0...25), Self.rateGen, Gen.int(in: 0...Int(UInt32.max)))
        await propertyCheck(count: 200, input: input) { events, rate, seed in
            var generator = SeededGenerator(seed: UInt64(seed))
            let shuffled = events.shuffled(using: &generator)
            let reversed = Array(events.reversed())
            let ledger = DailyLedger.fold(events, exchangeRate: rate)
            #expect(DailyLedger.fold(shuffled, exchangeRate: rate) == ledger)
            #expect(DailyLedger.fold(reversed, exchangeRate: rate) == ledger)
        }
    }

    /// A member's two machines, each counting the other's blocks into its own day, come to the
    /// same figures, whatever each used (nothing too) and in whatever order.
    @Test func twoMachinesCountingEachOtherInAgree() async {
        let blocks = Gen.int(in: 0...12)
        let input = zip(blocks, blocks, blocks, blocks, Self.rateGen)
        await propertyCheck(count: 200, input: input) { laptopVice, laptopProductive, deskVice, deskProductive, rate in
            func machine(vice: Int, productive: Int, id: UInt8) -> DailyLedger {
                var events: [UsageEvent] = []
                for number in 0..<vice {
                    let at = TimeInterval(number * 1800)
                    events.append(Self.event(.vice, minutes: 15, at: at, id: id &+ UInt8(number)))
                }
                for number in 0..<productive {
                    let at = TimeInterval(number * 1800 + 900)
                    events.append(Self.event(.productive, minutes: 15, at: at, id: id &+ 100 &+ UInt8(number)))
                }
                return DailyLedger.fold(events, exchangeRate: rate)
            }
            let laptop = machine(vice: laptopVice, productive: laptopProductive, id: 0)
            let desk = machine(vice: deskVice, productive: deskProductive, id: 50)
            let onLaptop = laptop.withOtherMachines(
                viceBlocks: deskVice, productiveBlocks: deskProductive, blockSeconds: 900, exchangeRate: rate)
            let onDesk = desk.withOtherMachines(
                viceBlocks: laptopVice, productiveBlocks: laptopProductive, blockSeconds: 900, exchangeRate: rate)
            #expect(onLaptop.viceBlocks == laptopVice + deskVice)
            #expect(onLaptop.productiveBlocks == laptopProductive + deskProductive)
            for figure in [\DailyLedger.earnedSeconds, \.spentSeconds, \.balanceSeconds, \.overdraftSeconds] {
                #expect(onLaptop[keyPath: figure] == onDesk[keyPath: figure], "\(figure)")
            }
            #expect(onLaptop.balanceSeconds >= 0 && onLaptop.overdraftSeconds >= 0)
            #expect(
                onLaptop.earnedSeconds - onLaptop.spentSeconds == onLaptop.balanceSeconds - onLaptop.overdraftSeconds)
        }
    }

    @Test func applyingInLedgerOrderEqualsFold() async {
        await propertyCheck(count: 200, input: Self.eventGen.array(of: 0...25), Self.rateGen) { events, rate in
            var ledger = DailyLedger()
            for event in events.sorted(by: UsageEvent.inLedgerOrder) {
                let accepted = ledger.apply(event, exchangeRate: rate)
                #expect(accepted)
            }
            #expect(ledger == DailyLedger.fold(events, exchangeRate: rate))
        }
    }

    // MARK: Invariants

    @Test func balanceNeverNegativeAndAccountsBalance() async {
        await propertyCheck(count: 200, input: Self.eventGen.array(of: 0...30), Self.rateGen) { events, rate in
            var ledger = DailyLedger()
            var earned = 0
            var spent = 0
            for event in events.sorted(by: UsageEvent.inLedgerOrder) {
                ledger.apply(event, exchangeRate: rate)
                switch event.category {
                case .productive: earned += Int((Double(max(0, event.seconds)) * rate).rounded())
                case .vice: spent += max(0, event.seconds)
                }
                // After every step, not only at the end.
                #expect(ledger.balanceSeconds >= 0)
                #expect(ledger.overdraftSeconds >= 0)
                #expect(ledger.balanceSeconds - ledger.overdraftSeconds == ledger.earnedSeconds - ledger.spentSeconds)
                #expect(ledger.earnedSeconds == earned)
                #expect(ledger.spentSeconds == spent)
            }
            #expect(ledger.viceBlocks == events.count { $0.category == .vice })
            #expect(ledger.productiveBlocks == events.count { $0.category == .productive })
            #expect(ledger.eventCount == events.count)
            #expect(ledger.overdraftSeconds <= ledger.spentSeconds)
            #expect(ledger.balanceSeconds <= ledger.earnedSeconds)
        }
    }

    @Test func codableRoundTrip() throws {
        let ledger = DailyLedger.fold(
            [Self.event(.productive, minutes: 30, at: 0), Self.event(.vice, minutes: 45, at: 900)], exchangeRate: 1.0)
        let data = try JSONEncoder().encode(ledger)
        #expect(try JSONDecoder().decode(DailyLedger.self, from: data) == ledger)
    }
}
