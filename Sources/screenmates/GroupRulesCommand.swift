import ArgumentParser
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome

/// The weekly settlement's rules on the command line, for `group create` and `group set`.
struct SettlementOptions: ParsableArguments {
    @Option(
        name: .customLong("week-start"),
        help: ArgumentHelp("The weekday the group's week starts (and closes) on: monday…sunday.", valueName: "day"))
    var weekStart: String?

    @Option(
        name: .customLong("kept-day-coins"), parsing: .unconditional,
        help: ArgumentHelp("Coins a day within the limit earns at the week's close (0-1000; 5).", valueName: "n"))
    var keptDayCoins: Int?

    @Option(
        name: .customLong("over-day-coins"), parsing: .unconditional,
        help: ArgumentHelp("Coins a day over the limit costs (0-1000; 10).", valueName: "n"))
    var overDayCoins: Int?

    @Option(
        name: .customLong("missing-days"),
        help: ArgumentHelp(
            "Days not sent by the close: pending (the week waits for them) or worst-case (charged as over, at once).",
            valueName: "rule"))
    var missingDays: String?

    var isEmpty: Bool { weekStart == nil && keptDayCoins == nil && overDayCoins == nil && missingDays == nil }

    /// `rules` with what was given, checked.
    func applied(to rules: SettlementRules) throws(AppError) -> SettlementRules {
        var result = rules
        if let weekStart {
            guard let day = SettlementRules.weekday(named: weekStart) else {
                throw .usage(
                    "--week-start takes a weekday, monday to sunday; \"\(SafeText.displayable(weekStart))\" is not one."
                )
            }
            result.weekStart = day
        }
        if let keptDayCoins { result.keptDayCoins = keptDayCoins }
        if let overDayCoins { result.overDayCoins = overDayCoins }
        if let missingDays {
            guard let rule = MissingDaysRule(rawValue: missingDays.lowercased()) else {
                throw .usage(
                    "--missing-days is pending or worst-case; \"\(SafeText.displayable(missingDays))\" is neither.")
            }
            result.missingDays = rule
        }
        if let problem = result.problem { throw .usage(problem) }
        return result
    }

    /// Sets the rules of the user's group; returns them and the week their rates take effect from.
    func apply(_ actions: GroupActions) async throws(AppError) -> (rules: SettlementRules, from: LocalDate?) {
        try await actions.changeSettlementRules { rules throws(AppError) in try applied(to: rules) }
    }

    /// "weeks start on Monday; a kept day +5 coins, … from the week of 2026-12-07 (…)".
    static func describe(_ set: (rules: SettlementRules, from: LocalDate?)) -> String {
        let rules = set.rules
        var text =
            "weeks start on \(rules.weekStartName.capitalized); a kept day +\(rules.keptDayCoins) coins, a day over "
            + "-\(rules.overDayCoins); days not sent by the close: \(rules.missingDays.rawValue)"
        if let from = set.from {
            text += ", from the week of \(from) (weeks already begun keep the rules they began with)"
        }
        return text
    }
}

extension GroupCommand {
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set how your group settles its weeks (any member may).",
            discussion: """
                The rates and the missing-days rule apply from the first week that has not begun anywhere on \
                Earth (at once while you are the group's only member); every member is told. The week start \
                can change only until a week has been settled.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var settlement: SettlementOptions
        @OptionGroup var clock: ClockOptions

        func validate() throws {
            if settlement.isEmpty {
                throw ValidationError(
                    "Give what to set: --week-start, --kept-day-coins, --over-day-coins or --missing-days.")
            }
            do { _ = try settlement.applied(to: .standard) } catch { throw ValidationError(error.message) }
        }

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let rules = try await settlement.apply(try GroupCommand.actions(global, clock))
                print("Your group's " + SettlementOptions.describe(rules) + ".")
                return 0
            }
        }
    }
}
