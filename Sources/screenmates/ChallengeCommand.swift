import ArgumentParser
import Foundation
import Logging
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesStore

/// `screenmates challenge create | list | show | forfeit`, `screenmates coins`, `screenmates badges`.
struct ChallengeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenge", abstract: "Personal challenges with coins at stake.",
        discussion: """
            A challenge holds you to a rule over a span of days: at most N blocks a day (of one app \
            or all vice apps), none of an app in quiet hours, or every day within the limit. It is \
            decided from your blocks the moment the rule is broken (the penalty) or when the span \
            ends (the reward), by whatever records them: the monitor, a dashboard, these commands.
            """,
        subcommands: [
            ChallengeCreateCommand.self, ChallengeListCommand.self, ChallengeShowCommand.self,
            ChallengeForfeitCommand.self,
        ])
}

/// A home opened for the challenge commands, with everything decided that the blocks decide.
struct ChallengeHome {
    let store: LocalStore
    let settings: UserSettings
    let clock: any AppClock
    let calendar: DayCalendar

    static func open(_ global: GlobalOptions, _ clockOptions: ClockOptions) throws(AppError) -> ChallengeHome {
        let home = try global.resolveHome()
        try home.requireData()
        do {
            let store = try home.openStore()
            guard let settings = try store.settings(), settings.displayName != nil else {
                throw AppError("\(home.path) has no profile yet: run `screenmates setup --name NAME` first.")
            }
            let clock = try ClockSource.choose(
                speed: clockOptions.speed, startAt: clockOptions.startInstant, store: store, publish: false
            ).clock
            let logger = LogSetup.bootstrap(home: home)
            try ChallengeReferee(clock: clock, timeZone: { TimeZone.current }, logger: logger).settle(store)
            return ChallengeHome(
                store: store, settings: settings, clock: clock,
                calendar: DayCalendar(timeZone: TimeZone.current, dayStartHour: settings.dayStartHour))
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    func challenges() throws(AppError) -> [StoredChallenge] {
        do { return try store.challenges() } catch { throw AppError(error) }
    }

    /// The app a name or id on the command line means: one of the tracked apps.
    func app(named name: String) throws(AppError) -> TrackedApp {
        let wanted = name.lowercased()
        if let app = settings.apps.first(where: { $0.id.lowercased() == wanted || $0.name.lowercased() == wanted }) {
            return app
        }
        let names = settings.apps.map(\.name).joined(separator: ", ")
        throw .usage(
            "\"\(SafeText.displayable(name))\" is not one of your apps (\(names)); add it with `screenmates apps add`.")
    }

    /// How a challenge stands now, in words.
    func state(of stored: StoredChallenge) -> String {
        let judge = ChallengeJudge(calendar: calendar)
        switch stored.outcome {
        case .kept: return "kept"
        case .broken:
            return "broken"
                + (stored.decidedAt.map { " at \(TimeFormat.localMinute($0, timeZone: calendar.timeZone))" } ?? "")
        case .forfeited: return "given up"
        case nil:
            switch judge.verdict(stored.challenge, events: [], goal: { _ in 0 }, now: clock.now()) {
            case .notStarted: return "starts \(stored.challenge.firstDay)"
            default: return "running until the end of \(stored.challenge.lastDay)"
            }
        }
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }
}

/// A challenge as `--json` prints it.
struct ChallengeEntry: Encodable {
    var id, rule, state, firstDay, lastDay: String
    var days, reward, penalty: Int
    var outcome: String?
    var decidedAt: String?

    init(_ stored: StoredChallenge, home: ChallengeHome) {
        let c = stored.challenge
        id = c.id
        rule = c.summary
        state = home.state(of: stored)
        firstDay = c.firstDay.iso8601
        lastDay = c.lastDay.iso8601
        days = c.days
        reward = c.reward
        penalty = c.penalty
        outcome = stored.outcome?.rawValue
        decidedAt = stored.decidedAt.map(TimeFormat.iso8601)
    }

    var line: String {
        "\(id)  \(rule), \(firstDay) to \(lastDay), +\(reward)/-\(penalty) coins: \(state)"
    }
}

struct ChallengeCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Start a challenge (at the next day start, or now).",
        discussion: """
            Give exactly one rule: --at-most N (blocks a day), --quiet HH:MM-HH:MM, or --streak. \
            --app names one of your apps; without it the rule is about all your vice apps.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Option(name: .customLong("at-most"), parsing: .unconditional, help: "At most N blocks a day.")
    var atMost: Int?

    @Option(
        help: ArgumentHelp(
            "No block between these times (past midnight when the end is earlier).", valueName: "HH:MM-HH:MM"))
    var quiet: String?

    @Flag(help: "Every day within the daily limit.")
    var streak = false

    @Option(help: "One of your apps (by name or id); default: all your vice apps.")
    var app: String?

    @Option(parsing: .unconditional, help: "How many days (1 to 365).")
    var days = 7

    @Option(parsing: .unconditional, help: "Coins won when it is kept (0 to 10000).")
    var reward = 50

    @Option(parsing: .unconditional, help: "Coins lost when it is broken or given up (0 to 10000).")
    var penalty = 25

    @Flag(help: "Start now (today's blocks from now on count) instead of at the next day start.")
    var now = false

    func run() throws {
        try runReportingErrors { () throws(AppError) -> Int32 in
            let rules = [atMost != nil, quiet != nil, streak].filter { $0 }.count
            guard rules == 1 else {
                throw .usage("Give exactly one rule: --at-most N, --quiet HH:MM-HH:MM or --streak.")
            }
            let home = try ChallengeHome.open(global, clock)
            let target: ChallengeTarget =
                try app.map { name throws(AppError) in .app(try home.app(named: name).id) } ?? .allVice
            let rule: ChallengeRule
            if let atMost {
                rule = .dailyBlocks(max: atMost, target: target)
            } else if let quiet {
                let parts = quiet.split(separator: "-").map(String.init)
                guard parts.count == 2, let from = TimeOfDay(parsing: parts[0]),
                    let until = TimeOfDay(parsing: parts[1])
                else {
                    throw .usage(
                        "--quiet takes HH:MM-HH:MM, such as 22:00-07:00; \"\(SafeText.displayable(quiet))\" is not.")
                }
                rule = .quietHours(target: target, from: from, until: until)
            } else {
                if app != nil { throw .usage("--streak is about the daily limit; it takes no --app.") }
                rule = .streak
            }
            let instant = home.clock.now()
            let today = home.calendar.day(containing: instant)
            var generator = SystemRandomNumberGenerator()
            let id = String((0..<4).map { _ in "abcdefghjkmnpqrstuvwxyz23456789".randomElement(using: &generator)! })
            let challenge = Challenge(
                id: id, rule: rule, firstDay: now ? today : today.adding(days: 1), days: days, reward: reward,
                penalty: penalty, startsAt: now ? instant : nil)
            if let problem = challenge.problem { throw .usage(problem) }
            do { try home.store.addChallenge(challenge, createdAt: instant) } catch { throw AppError(error) }
            print(
                "Challenge \(id): \(challenge.summary), \(challenge.firstDay) to \(challenge.lastDay)"
                    + (now ? " (from now)" : "") + ". Keep it: +\(reward) coins; break it or give up: -\(penalty).")
            return 0
        }
    }
}

struct ChallengeListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Your challenges, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(
        help: "Print JSON: an array of {id, rule, state, firstDay, lastDay, days, reward, penalty, outcome, decidedAt}."
    )
    var json = false

    func run() throws {
        try runReportingErrors { () throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let entries = try home.challenges().map { ChallengeEntry($0, home: home) }
            if json {
                print(ChallengeHome.json(entries))
            } else if entries.isEmpty {
                print("No challenges yet. Start one: screenmates challenge create --at-most 2 --days 7")
            } else {
                for entry in entries { print(entry.line) }
            }
            return 0
        }
    }
}

struct ChallengeShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One challenge.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        try runReportingErrors { () throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            guard let stored = try home.challenges().first(where: { $0.challenge.id == id }) else {
                throw AppError(
                    "There is no challenge \(SafeText.displayable(id)); `screenmates challenge list` shows yours.")
            }
            let entry = ChallengeEntry(stored, home: home)
            print(json ? ChallengeHome.json(entry) : entry.line)
            return 0
        }
    }
}

struct ChallengeForfeitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forfeit", abstract: "Give a challenge up: it costs its penalty.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    @Flag(help: "Do not ask first.")
    var yes = false

    func run() throws {
        try runReportingErrors { () throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            guard let stored = try home.challenges().first(where: { $0.challenge.id == id }) else {
                throw AppError(
                    "There is no challenge \(SafeText.displayable(id)); `screenmates challenge list` shows yours.")
            }
            if let outcome = stored.outcome {
                print("Challenge \(id) has ended (\(outcome.rawValue)); nothing changed.")
                return 0
            }
            if !yes {
                guard isatty(0) == 1 else {
                    throw .usage("Giving up costs \(stored.challenge.penalty) coins: add --yes to confirm.")
                }
                print(
                    "Give up challenge \(id) (\(stored.challenge.summary)) and lose up to \(stored.challenge.penalty) coins? [y/N] ",
                    terminator: "")
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    print("Kept going; nothing changed.")
                    return 0
                }
            }
            let instant = home.clock.now()
            let result: LocalStore.Forfeit
            do {
                result = try home.store.forfeit(
                    challengeID: id, at: instant, day: home.calendar.day(containing: instant))
            } catch {
                throw AppError(error)
            }
            switch result {
            case .forfeited(let notice):
                print(notice.map { "\($0.title). \($0.body)" } ?? "Challenge \(id) given up.")
            case .alreadyDecided(let outcome):
                print("Challenge \(id) has ended (\(outcome.rawValue)); nothing changed.")
            case .unknown:
                throw AppError("There is no challenge \(SafeText.displayable(id)).")
            }
            return 0
        }
    }
}

struct CoinsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coins", abstract: "Your coin balance and every entry of its ledger.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(help: "Print JSON: {balance, transactions: [{cause, asked, amount, reason, at}]}.")
    var json = false

    func run() throws {
        try runReportingErrors { () throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let ledger: CoinLedger
            do { ledger = try home.store.coinLedger() } catch { throw AppError(error) }
            if json {
                struct Entry: Encodable {
                    var cause, reason, at: String
                    var asked, amount: Int
                }
                struct Report: Encodable {
                    var balance: Int
                    var transactions: [Entry]
                }
                print(
                    ChallengeHome.json(
                        Report(
                            balance: ledger.balance,
                            transactions: ledger.transactions.map {
                                Entry(
                                    cause: $0.cause, reason: $0.reason, at: TimeFormat.iso8601($0.at), asked: $0.asked,
                                    amount: $0.amount)
                            })))
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

struct BadgesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "badges", abstract: "The badges you have earned, and those still to earn.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(help: "Print JSON: an array of {kind, title, category, difficulty, earned (the day, or null)}.")
    var json = false

    func run() throws {
        try runReportingErrors { () throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let earned: [BadgeKind: LocalDate]
            do {
                earned = Dictionary(try home.store.badges().map { ($0.kind, $0.day) }, uniquingKeysWith: { a, _ in a })
            } catch {
                throw AppError(error)
            }
            if json {
                struct Entry: Encodable {
                    var kind, title, category, difficulty: String
                    var earned: String?
                }
                print(
                    ChallengeHome.json(
                        BadgeKind.allCases.map {
                            Entry(
                                kind: $0.rawValue, title: $0.title, category: $0.category.rawValue,
                                difficulty: $0.difficulty.rawValue, earned: earned[$0]?.iso8601)
                        }))
                return 0
            }
            print("\(earned.count) of \(BadgeKind.allCases.count) badges")
            for kind in BadgeKind.allCases {
                let mark = earned[kind].map { "✓ \($0)" } ?? "  ----------"
                print("  \(mark)  \(kind.title) (\(kind.difficulty.rawValue)): \(kind.detail)")
            }
            return 0
        }
    }
}
