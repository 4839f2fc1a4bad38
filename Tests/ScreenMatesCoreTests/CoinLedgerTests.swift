import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// The coin ledger's arithmetic: never below zero, each cause counted once.
@Suite struct CoinLedgerTests {
    @Test func coinsNeverGoBelowZeroAndACauseCountsOnce() async {
        let bookings = Gen.int(in: -80...60).array(of: 0...30)
        await propertyCheck(count: 300, input: bookings) { amounts in
            var ledger = CoinLedger()
            let at = Date(timeIntervalSince1970: 1_800_000_000)
            for (index, asked) in amounts.enumerated() {
                let before = ledger.balance
                let booked = ledger.book(cause: "cause \(index % 7)", asked: asked, reason: "test", at: at)
                #expect(ledger.balance >= 0)
                if let booked {
                    #expect(ledger.balance == before + booked.amount)
                    #expect(asked >= 0 ? booked.amount == asked : booked.amount == max(asked, -before))
                } else {
                    #expect(ledger.balance == before, "a cause booked again changes nothing")
                }
            }
            #expect(Set(ledger.transactions.map(\.cause)).count == ledger.transactions.count)
            #expect(ledger.balance == ledger.transactions.reduce(0) { $0 + $1.amount })
        }
    }
}
