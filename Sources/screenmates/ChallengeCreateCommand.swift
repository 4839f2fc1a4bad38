import ArgumentParser
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome

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

    @OptionGroup var challenge: ChallengeRuleOptions

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
            let home = try ChallengeHome.open(global, clock)
            let c = challenge
            let made = try await home.start(
                try c.rule(home, shared: group), days: c.days, reward: c.reward, penalty: c.penalty, now: c.now,
                group: group)
            if whenOpened != .notice { try home.setWhenOpened(id: made.id, whenOpened) }
            print(
                c.sentence(made) + WhenOpenedText.sentence(whenOpened)
                    + (group
                        ? " Shared with group \(home.settings.group!.code): members join it with `screenmates challenge join \(made.id)`."
                        : ""))
            return 0
        }
    }
}

struct ChallengePublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish", abstract: "Publish a challenge open to everyone on the group store (its owner only).",
        discussion: """
            The group store's owner publishes: on PostgreSQL the role that owns the store's schema, on a \
            shared file the Unix user who owns the file. Everyone who uses the store, whatever their group, \
            may then join it (`screenmates challenge list --open-to-all`, `screenmates challenge join ID`) \
            until its first day ends; its board shows the participants' names and outcomes across groups. \
            The rule is given as for `challenge create`; an app it names is shown to everyone on the store. \
            Publishing does not join it.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions
    @OptionGroup var challenge: ChallengeRuleOptions

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let c = challenge
            let published = try await home.publish(
                try c.rule(home, shared: true), days: c.days, reward: c.reward, penalty: c.penalty, now: c.now)
            print(
                c.sentence(published)
                    + " Open to everyone on the group store: they join it with `screenmates challenge join \(published.id)`."
            )
            return 0
        }
    }
}

/// A challenge's rule, span and coins, as `challenge create` and `challenge publish` take them.
struct ChallengeRuleOptions: ParsableArguments {
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

    /// The rule the options give. With `shared`, an app must not be hidden: its name leaves this
    /// machine with the challenge.
    func rule(_ home: ChallengeHome, shared: Bool) throws(AppError) -> ChallengeRule {
        let rules = [atMost != nil, quiet != nil, streak].filter { $0 }.count
        guard rules == 1 else {
            throw .usage("Give exactly one rule: --at-most N, --quiet HH:MM-HH:MM or --streak.")
        }
        var target = ChallengeTarget.allVice
        if let app { target = .app(try home.app(named: app, sharedWithGroup: shared).id) }
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

    /// "Challenge ID: its rule, its span. Keep it: … break it or give up: …".
    func sentence(_ challenge: Challenge) -> String {
        "Challenge \(challenge.id): \(challenge.summary), \(challenge.firstDay) to \(challenge.lastDay)"
            + (now ? " (from now)" : "") + ". Keep it: +\(reward) coins; break it or give up: -\(penalty)."
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
