import ArgumentParser
import ScreenMatesApp
import ScreenMatesCore

struct ChallengeCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Start a challenge (at the next day start, or now), yours or your group's.",
        discussion: """
            Give exactly one rule: --at-most N (blocks a day), --quiet HH:MM-HH:MM, or --streak. \
            --app names one of your apps; without it the rule is about all your vice apps. With \
            --group the challenge is shared with your group: you are its first participant, and every \
            member may join it until its first day ends (the app it names is shared with it; a hidden \
            app cannot be).
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

    @Flag(help: "Share it with your group: every member may join it.")
    var group = false

    @Option(
        name: .customLong("when-opened"),
        help: ArgumentHelp(
            "What happens when its app comes to the front while the rule forbids it: a notice at once, the window also moved out of sight, or asked to close (a window-following monitor does it; off: nothing).",
            valueName: "notice|minimize|close|off"))
    var whenOpened: OpenedAction = .notice

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let rules = [atMost != nil, quiet != nil, streak].filter { $0 }.count
            guard rules == 1 else {
                throw .usage("Give exactly one rule: --at-most N, --quiet HH:MM-HH:MM or --streak.")
            }
            let home = try ChallengeHome.open(global, clock)
            let challenge = try await home.start(
                try rule(home), days: days, reward: reward, penalty: penalty, now: now, group: group)
            if whenOpened != .notice { try home.setWhenOpened(id: challenge.id, whenOpened) }
            print(
                "Challenge \(challenge.id): \(challenge.summary), \(challenge.firstDay) to \(challenge.lastDay)"
                    + (now ? " (from now)" : "") + ". Keep it: +\(reward) coins; break it or give up: -\(penalty)."
                    + WhenOpenedText.sentence(whenOpened)
                    + (group
                        ? " Shared with group \(home.settings.group!.code): members join it with `screenmates challenge join \(challenge.id)`."
                        : ""))
            return 0
        }
    }

    private func rule(_ home: ChallengeHome) throws(AppError) -> ChallengeRule {
        var target = ChallengeTarget.allVice
        if let app { target = .app(try home.app(named: app, sharedWithGroup: group).id) }
        if let atMost { return .dailyBlocks(max: atMost, target: target) }
        if let quiet {
            let parts = quiet.split(separator: "-").map(String.init)
            guard parts.count == 2, let from = TimeOfDay(parsing: parts[0]), let until = TimeOfDay(parsing: parts[1])
            else {
                throw .usage(
                    "--quiet takes HH:MM-HH:MM, such as 22:00-07:00; \"\(SafeText.displayable(quiet))\" is not.")
            }
            return .quietHours(target: target, from: from, until: until)
        }
        if app != nil { throw .usage("--streak is about the daily limit; it takes no --app.") }
        return .streak
    }
}

extension OpenedAction: ExpressibleByArgument {}

/// What `--when-opened` means, said once a challenge is made or joined.
enum WhenOpenedText {
    static func sentence(_ action: OpenedAction) -> String {
        switch action {
        case .off: " When its app is opened: nothing."
        case .notice: " When its app is opened while the rule forbids it: a notice at once."
        case .minimize: " When its app is opened while the rule forbids it: a notice, and the window out of sight."
        case .close: " When its app is opened while the rule forbids it: a notice, and the window asked to close."
        }
    }
}
