import Foundation
import Testing

/// The weekly settlement on the real binary: Ana's days reach the group by the close, Bo's
/// do not; the week is settled for her at once and waits for him; when his days arrive it is
/// settled with them, and each gets their result in their coins, once. A change of the rates
/// waits for the next week, and every member is told.
@Suite struct WeekSettlementEndToEndTests {
    /// (name, status, coins) of each result of the week of 2026-11-16.
    private func results(_ week: [String: Any]) -> [String] {
        (week["results"] as? [[String: Any]] ?? []).filter { $0["week"] as? String == "2026-11-16" }.map {
            "\($0["name"] ?? "") \($0["status"] ?? "") \($0["coins"] ?? "")"
        }
    }

    @Test func pendingDaysWaitAndSettleTheWeekOnceWhenTheyArrive() async throws {
        let (ana, bo) = (Binary.Home(), Binary.Home())
        let shared = Binary.SharedStore()
        let store = ["--group-store", shared.path]
        _ = try await ana.succeed(["setup", "--name", "ana", "--start-at", "2026-11-16T08:00"])
        _ = try await bo.succeed(["setup", "--name", "bo", "--start-at", "2026-11-16T08:00"])
        let created = try await ana.succeed(
            ["group", "create", "--kept-day-coins", "4", "--start-at", "2026-11-16T08:01"] + store)
        #expect(created.contains("a kept day +4 coins"), "\(created)")
        let code = try #require(created.split(separator: " ").dropFirst(2).first.map(String.init))
        _ = try await bo.succeed(["group", "join", code, "--start-at", "2026-11-16T08:02"] + store)
        // Bo's long Tuesday, sent that evening; nothing more from him before the close.
        _ = try await bo.succeed([
            "monitor", "--start-at", "2026-11-17T09:00", "--rate", "max", "--count", "24", "--seed", "3",
        ])
        _ = try await bo.succeed(["sync", "--start-at", "2026-11-17T20:00"])
        // Ana syncs after the close: her week is settled; Bo's waits for his six days.
        _ = try await ana.succeed(["sync", "--start-at", "2026-11-23T09:00"])
        let closed = try await ana.json(["week", "--start-at", "2026-11-23T09:01"])
        #expect(results(closed) == ["ana settled 28", "bo pending 0"], "\(closed)")
        // Bo's days arrive: his week is settled with its penalty, once, into his coins.
        _ = try await bo.succeed(["sync", "--start-at", "2026-11-23T10:00"])
        _ = try await bo.succeed(["sync", "--start-at", "2026-11-23T10:01"])
        let settled = try await bo.json(["week", "--start-at", "2026-11-23T10:02"])
        #expect(results(settled) == ["ana settled 28", "bo settled 14"], "6 kept, 1 over: \(settled)")
        let coins = try await bo.json(["coins", "--start-at", "2026-11-23T10:03"])
        let weeks = (coins["transactions"] as? [[String: Any]] ?? []).filter {
            ($0["cause"] as? String)?.hasPrefix("week ") == true
        }
        #expect(weeks.map { $0["amount"] as? Int } == [14], "\(coins)")
    }

    /// Bo, in Ana's group, changes the rates on a Wednesday: they wait for the next week, which
    /// `group set` says, Ana's `week` shows and her notices tell; the week running keeps the rules
    /// it began with when it is settled, the next is settled by the new ones.
    @Test func aChangeOfTheRulesWaitsForTheNextWeekAndEveryoneIsTold() async throws {
        let (ana, bo) = (Binary.Home(), Binary.Home())
        let shared = Binary.SharedStore()
        let store = ["--group-store", shared.path]
        _ = try await ana.succeed(["setup", "--name", "ana", "--start-at", "2026-11-23T08:00"])
        _ = try await bo.succeed(["setup", "--name", "bo", "--start-at", "2026-11-23T08:00"])
        // Alone in her new group, Ana's rates hold at once.
        let created = try await ana.succeed(
            ["group", "create", "--kept-day-coins", "7", "--start-at", "2026-11-23T08:01"] + store)
        #expect(created.contains("a kept day +7 coins") && !created.contains("from the week of"), "\(created)")
        let code = try #require(created.split(separator: " ").dropFirst(2).first.map(String.init), "\(created)")
        _ = try await bo.succeed(["group", "join", code, "--start-at", "2026-11-23T08:02"] + store)

        let set = try await bo.succeed([
            "group", "set", "--over-day-coins", "1000", "--missing-days", "worst-case", "--start-at",
            "2026-11-25T12:00",
        ])
        #expect(set.contains("a day over -1000") && set.contains("from the week of 2026-11-30"), "\(set)")
        let week = try await ana.succeed(["week", "--start-at", "2026-11-25T13:00"])
        #expect(week.contains("a day over -10;"), "\(week)")
        #expect(week.contains("From the week of 2026-11-30: a kept day +7 coins, a day over -1000"), "\(week)")
        _ = try await ana.succeed(["sync", "--start-at", "2026-11-25T13:01"])
        let status = try await ana.json(["status", "--start-at", "2026-11-25T13:02"])
        let notices = (status["notifications"] as? [[String: Any]] ?? []).filter {
            ($0["kind"] as? String)?.hasPrefix("rules-") == true
        }
        #expect(
            notices.map { $0["title"] as? String } == ["New rules from the week of 2026-11-30"], "\(status)")

        // Settled on 8 December: the week of 23 November by its rules, the next by the new ones.
        _ = try await ana.succeed(["sync", "--start-at", "2026-12-08T09:00"])
        let weeks = try await ana.json(["week", "--start-at", "2026-12-08T09:01"])
        let rules = Dictionary(
            (weeks["results"] as? [[String: Any]] ?? []).compactMap { result -> (String, String)? in
                guard let week = result["week"] as? String, let rule = result["rule"] as? String,
                    result["name"] as? String == "bo"
                else { return nil }
                return (week, rule)
            }, uniquingKeysWith: { first, _ in first })
        #expect(rules == ["2026-11-23": "pending", "2026-11-30": "worst-case"], "\(weeks)")
        #expect(weeks["overDayCoins"] as? Int == 1000 && weeks["nextRules"] is NSNull, "\(weeks)")
    }
}
