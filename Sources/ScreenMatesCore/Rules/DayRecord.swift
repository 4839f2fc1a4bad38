import Foundation

/// One finished day in the history: what the rollover archived for it.
///
/// Every figure except `synced` is derived from the day's events, so a lost or stale record can
/// be written again from them.
public struct DayRecord: Hashable, Sendable, Codable {
    public var date: LocalDate
    public var viceBlocks: Int
    public var productiveBlocks: Int
    /// The daily goal in force that day.
    public var goalBlocks: Int
    public var earnedSeconds: Int
    public var spentSeconds: Int
    public var endingBalanceSeconds: Int
    public var overdraftSeconds: Int
    /// The streak after this day was counted.
    public var streakAfter: Int
    /// Whether the day's totals have reached the group store.
    public var synced: Bool
    /// The instants that belonged to this day when it was archived; late events are added to
    /// the day whose interval holds them.
    public var interval: Range<Date>?

    public init(
        date: LocalDate, viceBlocks: Int, productiveBlocks: Int, goalBlocks: Int, earnedSeconds: Int,
        spentSeconds: Int, endingBalanceSeconds: Int, overdraftSeconds: Int, streakAfter: Int, synced: Bool = false,
        interval: Range<Date>? = nil
    ) {
        self.date = date
        self.viceBlocks = viceBlocks
        self.productiveBlocks = productiveBlocks
        self.goalBlocks = goalBlocks
        self.earnedSeconds = earnedSeconds
        self.spentSeconds = spentSeconds
        self.endingBalanceSeconds = endingBalanceSeconds
        self.overdraftSeconds = overdraftSeconds
        self.streakAfter = streakAfter
        self.synced = synced
        self.interval = interval
    }

    /// The record for `date` from its ledger; the streak is filled in by `StreakManager`.
    public init(
        date: LocalDate, ledger: DailyLedger, goalBlocks: Int, streakAfter: Int = 0, interval: Range<Date>? = nil
    ) {
        self.init(
            date: date, viceBlocks: ledger.viceBlocks, productiveBlocks: ledger.productiveBlocks,
            goalBlocks: goalBlocks, earnedSeconds: ledger.earnedSeconds, spentSeconds: ledger.spentSeconds,
            endingBalanceSeconds: ledger.balanceSeconds, overdraftSeconds: ledger.overdraftSeconds,
            streakAfter: streakAfter, interval: interval)
    }

    /// The member's day: this machine's record with the blocks of `blockSeconds` used on the
    /// member's other machines counted in, the day judged whole (`DailyLedger.withOtherMachines`),
    /// and by the highest goal any of them had.
    public func withOtherMachines(
        viceBlocks blocks: Int, productiveBlocks productive: Int, goalBlocks goal: Int, blockSeconds: Int,
        exchangeRate: Double
    ) -> DayRecord {
        var member = self
        member.goalBlocks = max(goalBlocks, goal)
        member.productiveBlocks = productiveBlocks.saturatingAdding(max(0, productive))
        member.viceBlocks = viceBlocks.saturatingAdding(max(0, blocks))
        member.earnedSeconds = earnedSeconds.saturatingAdding(
            DailyLedger.earned(productive, blockSeconds: blockSeconds, exchangeRate: exchangeRate))
        member.spentSeconds = spentSeconds.saturatingAdding(
            max(0, blocks).saturatingMultiplied(by: max(0, blockSeconds)))
        (member.endingBalanceSeconds, member.overdraftSeconds) = DailyLedger.wholeDay(
            earned: member.earnedSeconds, spent: member.spentSeconds)
        return member
    }

    /// Within the limit: exactly at the goal still counts as kept.
    public var keptLimit: Bool { viceBlocks <= goalBlocks }
}

/// What the member's other machines used on one day, summed: what this machine's figures count in.
public struct OtherMachinesTotal: Hashable, Sendable {
    public var viceBlocks: Int
    /// The highest goal any of them judged the day by (0: one the versions before goals were sent
    /// wrote).
    public var goalBlocks: Int
    /// Their productive blocks, as far as they said them.
    public var productiveBlocks: Int

    public init(viceBlocks: Int, goalBlocks: Int, productiveBlocks: Int = 0) {
        self.productiveBlocks = productiveBlocks
        self.viceBlocks = viceBlocks
        self.goalBlocks = goalBlocks
    }
}

extension DayRecord {
    /// The member's finished days: this machine's records (`own`) with the other machines' days
    /// counted in, and a record for each day from `start` through `lastFinished` that only another
    /// machine used (nothing of this machine's to send: it counts as sent), judged by `goal` when
    /// they said none. In date order; the streaks are the caller's to count.
    public static func memberDays(
        _ own: [DayRecord], otherMachines: [LocalDate: OtherMachinesTotal], from start: LocalDate,
        through lastFinished: LocalDate, goal: Int, blockSeconds: Int, exchangeRate: Double
    ) -> [DayRecord] {
        guard !otherMachines.isEmpty else { return own }
        var days = own.map { record in
            otherMachines[record.date].map {
                record.withOtherMachines(
                    viceBlocks: $0.viceBlocks, productiveBlocks: $0.productiveBlocks, goalBlocks: $0.goalBlocks,
                    blockSeconds: blockSeconds, exchangeRate: exchangeRate)
            } ?? record
        }
        let recorded = Set(own.map(\.date))
        for (date, total) in otherMachines
        where date >= start && date <= lastFinished && !recorded.contains(date) {
            let dayGoal = total.goalBlocks > 0 ? total.goalBlocks : goal
            var day = DayRecord(date: date, ledger: DailyLedger(), goalBlocks: dayGoal).withOtherMachines(
                viceBlocks: total.viceBlocks, productiveBlocks: total.productiveBlocks, goalBlocks: total.goalBlocks,
                blockSeconds: blockSeconds, exchangeRate: exchangeRate)
            day.synced = true
            days.append(day)
        }
        return days.sorted { $0.date < $1.date }
    }
}
