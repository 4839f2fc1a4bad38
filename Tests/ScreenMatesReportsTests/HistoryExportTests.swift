import CSV
import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesHomeTestSupport
import ScreenMatesStore
import Testing

@testable import ScreenMatesReports

/// Exports read back with an independent parser (CSV.swift's reader, JSONSerialization) give
/// the same numbers as the history they came from.
@Suite struct HistoryExportTests {
    static let catalogue = AppCatalogue(apps: [], defaultVice: [], defaultProductive: [])

    /// Four finished days of usage: TikTok (hidden), "Words, With \"Friends\"" (a name that needs
    /// quoting), Kindle; one day over the limit.
    private func scenario() throws -> Scenario {
        let scenario = try Scenario(
            timeZone: "UTC", start: "2026-11-01T08:00", trackingStart: "2026-11-01", goal: 3)
        var settings = try #require(try scenario.store.settings())
        settings.apps = [
            TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice, hidden: true),
            TrackedApp(id: "custom-words", name: "Words, With \"Friends\"", bundleID: "w", category: .vice),
            TrackedApp(id: "kindle", name: "Kindle", bundleID: "k", category: .productive),
        ]
        try scenario.store.updateSettings(settings)
        var events: [UsageEvent] = []
        for (day, (tiktok, words, kindle)) in [(2, 1, 1), (0, 0, 0), (4, 1, 2), (1, 0, 3)].enumerated() {
            func add(_ app: String, _ category: AppCategory, _ count: Int, hour: Int) {
                for index in 0..<count {
                    events.append(
                        UsageEvent(
                            id: UUID(), appID: app, category: category, seconds: 900,
                            occurredAt: scenario.instant("2026-11-0\(day + 1)T\(hour):\(10 + index * 15)")))
                }
            }
            add("kindle", .productive, kindle, hour: 9)
            add("tiktok", .vice, tiktok, hour: 12)
            add("custom-words", .vice, words, hour: 20)
        }
        try scenario.store.record(events)
        scenario.setClock("2026-11-05T10:00")
        try scenario.read()
        return scenario
    }

    private func export(_ scenario: Scenario, limit: Int? = nil, includeHidden: Bool = false) throws -> HistoryExport {
        let settings = try #require(try scenario.store.settings())
        return try HistoryExport(
            history: scenario.feed.history, store: scenario.store, settings: settings, catalogue: Self.catalogue,
            calendar: scenario.feed.calendar, limit: limit, includeHidden: includeHidden)
    }

    @Test func csvParsedBackGivesTheHistorysNumbers() throws {
        let scenario = try scenario()
        let history = scenario.feed.history
        #expect(history.count == 4)
        let text = try export(scenario).csv()
        #expect(text.hasPrefix(HistoryExport.csvHeader.joined(separator: ",") + "\r\n"))
        let reader = try CSVReader(string: text, hasHeaderRow: true)
        #expect(reader.headerRow == HistoryExport.csvHeader)
        var rows: [[String: String]] = []
        while let row = reader.next() {
            #expect(row.count == HistoryExport.csvHeader.count, "\(row)")
            rows.append(Dictionary(uniqueKeysWithValues: zip(HistoryExport.csvHeader, row)))
        }
        #expect(rows.count == history.count)
        for (row, record) in zip(rows, history) {
            #expect(row["date"] == record.date.iso8601)
            #expect(Int(row["vice_blocks"]!) == record.viceBlocks)
            #expect(Int(row["productive_blocks"]!) == record.productiveBlocks)
            #expect(Int(row["goal_blocks"]!) == record.goalBlocks)
            #expect(row["over_limit"] == String(!record.keptLimit))
            #expect(Int(row["earned_seconds"]!) == record.earnedSeconds)
            #expect(Int(row["spent_seconds"]!) == record.spentSeconds)
            #expect(Int(row["ending_balance_seconds"]!) == record.endingBalanceSeconds)
            #expect(Int(row["overdraft_seconds"]!) == record.overdraftSeconds)
            #expect(Int(row["streak_after"]!) == record.streakAfter)
            #expect(row["synced"] == String(record.synced))
        }
        #expect(rows.map { Int($0["vice_blocks"]!)! } == [3, 0, 5, 1])
        #expect(rows.map { $0["over_limit"]! } == ["false", "false", "true", "false"])
        // The name with a comma and quotes survives the trip; the hidden app is not named.
        #expect(rows[0]["apps"] == "(hidden) 2; Words, With \"Friends\" 1; Kindle 1")
        #expect(!text.contains("TikTok"))
    }

    @Test func hiddenAppsAreNamedOnlyWhenAskedFor() throws {
        let scenario = try scenario()
        let hidden = try export(scenario)
        let named = try export(scenario, includeHidden: true)
        #expect(!hidden.json().contains("TikTok") && !hidden.csv().contains("TikTok"))
        #expect(named.json().contains("TikTok") && named.csv().contains("TikTok 2"))
        // The figures do not change, only the names.
        #expect(hidden.days.map(\.viceBlocks) == named.days.map(\.viceBlocks))
        let first = try #require(hidden.days[2].apps.first)
        #expect(first.name == "(hidden)" && first.category == "vice" && first.blocks == 4 && first.seconds == 3600)
        #expect(first.hidden)
    }

    @Test func jsonIsAnArrayOfDayObjectsWithTheSameNumbers() throws {
        let scenario = try scenario()
        let text = try export(scenario, limit: 2).json()
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(objects.count == 2)
        let history = Array(scenario.feed.history.suffix(2))
        for (object, record) in zip(objects, history) {
            #expect(object["date"] as? String == record.date.iso8601)
            #expect(object["viceBlocks"] as? Int == record.viceBlocks)
            #expect(object["earnedSeconds"] as? Int == record.earnedSeconds)
            #expect(object["streakAfter"] as? Int == record.streakAfter)
            #expect(object["overLimit"] as? Bool == !record.keptLimit)
            #expect(object["apps"] is [[String: Any]])
        }
        let decoded = try JSONDecoder().decode([HistoryExport.Day].self, from: Data(text.utf8))
        #expect(decoded == (try export(scenario, limit: 2)).days)
    }

    @Test func anEmptyHistoryIsAHeaderOrAnEmptyArray() throws {
        let export = HistoryExport(days: [])
        #expect(export.csv() == HistoryExport.csvHeader.joined(separator: ",") + "\r\n")
        #expect(export.json() == "[]\n")
    }
}
