import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome

struct CoinsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coins", abstract: "Your coin balance and every entry of its ledger.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(help: "Print JSON: {balance, transactions: [{cause, asked, amount, reason, at}]}.")
    var json = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let ledger = try await home.coinLedger()
            if json {
                print(jsonText(CoinsReport(ledger)))
                return 0
            }
            print("\(ledger.balance) coins")
            for entry in ledger.transactions {
                let amount = entry.asked >= 0 ? "+\(entry.amount)" : "-\(-entry.amount)"
                let short = entry.amount != entry.asked ? " (asked \(entry.asked): the balance was all there was)" : ""
                print(
                    "  \(TimeFormat.localMinute(entry.at, timeZone: home.calendar.timeZone))  \(amount)  \(entry.reason)\(short)"
                )
            }
            return 0
        }
    }
}

/// The ledger as `coins --json` prints it.
struct CoinsReport: Encodable {
    struct Entry: Encodable {
        var cause, reason, at: String
        var asked, amount: Int
    }

    var balance: Int
    var transactions: [Entry]

    init(_ ledger: CoinLedger) {
        balance = ledger.balance
        transactions = ledger.transactions.map {
            Entry(cause: $0.cause, reason: $0.reason, at: TimeFormat.iso8601($0.at), asked: $0.asked, amount: $0.amount)
        }
    }
}

struct BadgesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "badges", abstract: "The badges you have earned, and those still to earn.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(help: "Print JSON: an array of {kind, title, category, difficulty, earned (the day, or null)}.")
    var json = false

    func run() async throws {
        try await reporting { () throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let earned = try home.earnedBadges()
            if json {
                print(jsonText(BadgeEntry.all(earned: earned)))
                return 0
            }
            print("\(earned.count) of \(BadgeKind.allCases.count) badges")
            for category in BadgeKind.Category.allCases {
                print("\(category.rawValue):")
                for kind in BadgeKind.allCases where kind.category == category {
                    let mark = earned[kind].map { "✓ \($0)" } ?? "  ----------"
                    print("  \(mark)  \(kind.title) (\(kind.difficulty.rawValue)): \(kind.detail)")
                }
            }
            return 0
        }
    }
}

/// A badge as `badges --json` and `status --json` print it.
struct BadgeEntry: Encodable {
    var kind, title, category, difficulty: String
    var earned: String?

    static func all(earned: [BadgeKind: LocalDate]) -> [BadgeEntry] {
        BadgeKind.allCases.map {
            BadgeEntry(
                kind: $0.rawValue, title: $0.title, category: $0.category.rawValue, difficulty: $0.difficulty.rawValue,
                earned: earned[$0]?.iso8601)
        }
    }
}
