import Foundation
import ScreenMatesCore
import ScreenMatesUI

/// Time to rank a leaderboard and build a full frame from it, without a terminal.
enum FrameBenchmark {
    struct Result {
        var members: Int
        var width: Int
        var height: Int
        var rankMicros: [Double]
        var renderMicros: [Double]
        var diffMicros: [Double]
        var unchangedRuns: Int
    }

    static func run(members count: Int, width: Int, height: Int, iterations: Int) -> Result {
        let calendar = DayCalendar(timeZone: TimeZone(identifier: "UTC")!)
        let now = Date(timeIntervalSince1970: 1_795_300_000)
        var generator = SeededGenerator(seed: 42)
        let members = (0..<count).map { index in
            LeaderboardMember(
                id: try! UserID(validating: String(format: "m%07d", index)), name: "member_\(index)",
                blocks: index % 37 == 0 ? nil : Int(generator.next() % 14),
                streak: Int(generator.next() % 40),
                lastActive: now.addingTimeInterval(-Double(generator.next() % 7200)),
                isMe: index == count / 2)
        }
        var events: [UsageEvent] = []
        for slot in 0..<12 {
            events.append(
                UsageEvent(
                    id: generator.uuid(), appID: slot % 3 == 0 ? "kindle" : "tiktok",
                    category: slot % 3 == 0 ? .productive : .vice, seconds: 900,
                    occurredAt: now.addingTimeInterval(Double(-900 * slot))))
        }
        let ledger = DailyLedger.fold(events, exchangeRate: 1)
        let today = TodaySummary(
            date: calendar.day(containing: now), ledger: ledger, goal: 8,
            streak: .init(current: 4, best: 9), nextReset: calendar.nextReset(after: now))

        var rankTimes: [Double] = []
        var renderTimes: [Double] = []
        var diffTimes: [Double] = []
        var ranked: [LeaderboardEntry] = []
        var previous: Frame?
        var unchangedRuns = 0
        for _ in 0..<iterations {
            rankTimes.append(micros { ranked = Leaderboard.rank(members.shuffled(using: &generator)) })
            let data = DashboardContent(
                userName: "member_\(count / 2)", group: .init(code: "K7Q2XM", memberCount: count), calendar: calendar,
                now: now, clockSpeed: 1, today: today,
                leaderboards: [.today: ranked, .week: ranked, .month: ranked])
            var model = ScreensModel(screen: .dashboard, width: width, height: height, data: data)
            model.update(data)
            var frame = Frame(width: 0, height: 0)
            renderTimes.append(micros { frame = ScreenRenderer.render(model, glyphs: .unicode) })
            var runs = 0
            diffTimes.append(micros { runs = frame.changes(from: previous).count })
            if previous != nil { unchangedRuns = max(unchangedRuns, runs) }
            previous = frame
        }
        return Result(
            members: count, width: width, height: height, rankMicros: rankTimes, renderMicros: renderTimes,
            diffMicros: diffTimes, unchangedRuns: unchangedRuns)
    }

    static func micros(_ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    }
}

extension Array where Element == Double {
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}
