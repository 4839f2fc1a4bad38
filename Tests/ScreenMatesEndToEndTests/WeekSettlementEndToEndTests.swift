import Foundation
import Testing

/// The weekly settlement on the real binary: Ana's days reach the group by the close, Bo's
/// do not; the week is settled for her at once and waits for him; when his days arrive it is
/// settled with them, and each gets their result in their coins, once.
@Suite struct WeekSettlementEndToEndTests {
    /// (name, status, coins) of each result of the week of 2026-11-16.
    private func results(_ week: [String: Any]) -> [String] {
        (week["results"] as? [[String: Any]] ?? []).filter { $0["week"] as? String == "2026-11-16" }.map {
            "\($0["name"] ?? "") \($0["status"] ?? "") \($0["coins"] ?? "")"
        }
    }

    @Test func pendingDaysWaitAndSettleTheWeekOnceWhenTheyArrive() async throws {
        let (ana, bo) = (Binary.Home(), Binary.Home())
        let shared = ana.path + "-group-store.sqlite"
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: shared + suffix) }
        }
        let store = ["--group-store", shared]
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
}
