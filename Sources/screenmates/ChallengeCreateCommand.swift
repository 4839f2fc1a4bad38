import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

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

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let rules = [atMost != nil, quiet != nil, streak].filter { $0 }.count
            guard rules == 1 else {
                throw .usage("Give exactly one rule: --at-most N, --quiet HH:MM-HH:MM or --streak.")
            }
            let home = try ChallengeHome.open(global, clock)
            let rule = try self.rule(home)
            let instant = home.clock.now()
            let today = home.calendar.day(containing: instant)
            var generator = SystemRandomNumberGenerator()
            let id = String((0..<4).map { _ in "abcdefghjkmnpqrstuvwxyz23456789".randomElement(using: &generator)! })
            var challenge = Challenge(
                id: id, rule: rule, firstDay: now ? today : today.adding(days: 1), days: days, reward: reward,
                penalty: penalty, startsAt: now ? instant : nil)
            if let problem = challenge.problem { throw .usage(problem) }
            if group {
                guard let (games, location) = try home.groupGames() else {
                    throw AppError(
                        "You are not in a group: create one (`screenmates group create`) or join one to share a challenge."
                    )
                }
                do throws(GroupStoreError) {
                    challenge = try await location.using { store throws(GroupStoreError) in
                        try await games.create(challenge, in: store)
                    }
                } catch {
                    throw AppError(error.message)
                }
            } else {
                do { try home.store.addChallenge(challenge, createdAt: instant) } catch { throw AppError(error) }
            }
            print(
                "Challenge \(challenge.id): \(challenge.summary), \(challenge.firstDay) to \(challenge.lastDay)"
                    + (now ? " (from now)" : "") + ". Keep it: +\(reward) coins; break it or give up: -\(penalty)."
                    + (group
                        ? " Shared with group \(home.settings.group!.code): members join it with `screenmates challenge join \(challenge.id)`."
                        : ""))
            return 0
        }
    }

    private func rule(_ home: ChallengeHome) throws(AppError) -> ChallengeRule {
        var target = ChallengeTarget.allVice
        if let app {
            let tracked = try home.app(named: app)
            if group && tracked.hidden {
                throw .usage(
                    "\(tracked.name) is hidden: its name never leaves this machine, so a group challenge cannot name it."
                )
            }
            target = .app(tracked.id)
        }
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

extension ChallengeHome {
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
}
