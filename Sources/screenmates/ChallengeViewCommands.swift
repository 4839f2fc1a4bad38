import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome

struct ChallengeListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Your challenges and your group's, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(
        help: """
            Print JSON: an array of {id, rule, state, firstDay, lastDay, days, reward, penalty, outcome, decidedAt, \
            group, joined, openToAll, participants: [{name, state, rank, daysKept, isMe, decidedAt}]}.
            """)
    var json = false

    @Flag(
        name: .customLong("open-to-all"),
        help: "The challenges open to everyone on the group store instead, joined or not, each with its board.")
    var openToAll = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            if openToAll {
                let boards = try await home.openBoards()
                let entries = try home.openSummaries(boards)
                if json {
                    print(jsonText(entries))
                } else if entries.isEmpty {
                    print("No challenge is open to all on this group store; its owner publishes them.")
                } else {
                    for entry in entries { print(entry.line) }
                }
                if let note = boards.offlineNote { printError(note) }
                printLeftOut(boards.leftOut)
                return 0
            }
            let games = try await home.games()
            // The boards of the open challenges the user joined, read only when there are some.
            let open = try home.challenges().contains(where: \.openToAll) ? try await home.openBoards() : nil
            let entries = try home.summaries(games, open: open)
            if json {
                print(jsonText(entries))
            } else if entries.isEmpty {
                print("No challenges yet. Start one: screenmates challenge create --at-most 2 --days 7")
            } else {
                for entry in entries { print(entry.line) }
            }
            if let note = games?.offlineNote ?? open?.offlineNote { printError(note) }
            printLeftOut((games?.leftOut ?? []) + (open?.leftOut ?? []))
            return 0
        }
    }
}

struct ChallengeShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "One challenge; a group's or one open to all with its participants' leaderboard.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let wanted = id.lowercased()
            let games = try await home.games()
            var entry = try home.summaries(games).first(where: { $0.id == wanted })
            var note = games?.offlineNote
            var leftOut = games?.leftOut ?? []
            // One open to all (joined or not) shows its board across groups.
            if entry?.openToAll ?? true {
                let boards = try await home.openBoards()
                if let open = try home.openSummaries(boards).first(where: { $0.id == wanted }) {
                    entry = open
                    note = boards.offlineNote
                    leftOut = boards.leftOut
                }
            }
            guard let entry else {
                throw AppError(
                    "There is no challenge \(SafeText.displayable(id)); `screenmates challenge list` shows yours, "
                        + "`screenmates challenge list --open-to-all` those open to everyone on the group store.")
            }
            if json {
                print(jsonText(entry))
            } else {
                print(entry.line)
                for line in entry.leaderboard { print(line) }
            }
            if let note { printError(note) }
            printLeftOut(leftOut)
            return 0
        }
    }
}

struct ChallengeJoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract:
            "Join one of your group's challenges, or one open to all on the group store (until its first day ends).",
        discussion: """
            The id is looked for among your group's challenges first, then among those open to everyone \
            on the group store (`screenmates challenge list --open-to-all`): you join an open one under \
            your display name, which must be free on its board.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    @Option(
        name: .customLong("when-opened"),
        help: ArgumentHelp(
            "What happens when its app comes to the front while the rule forbids it (see `challenge create --help`).",
            valueName: "notice|minimize|close|off"))
    var whenOpened: OpenedAction = .notice

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let challenge = try await home.join(id: id)
            if whenOpened != .notice { try home.setWhenOpened(id: challenge.id, whenOpened) }
            print(
                "Joined challenge \(challenge.id): \(challenge.summary), \(challenge.firstDay) to \(challenge.lastDay)"
                    + (challenge.startsAt.map {
                        " (your blocks count from \(TimeFormat.localMinute($0, timeZone: home.calendar.timeZone)))"
                    } ?? "")
                    + ". Keep it: +\(challenge.reward) coins; break it or give up: -\(challenge.penalty)."
                    + WhenOpenedText.sentence(whenOpened))
            return 0
        }
    }
}

struct ChallengeWhenOpenedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "when-opened",
        abstract: "Choose what one of your challenges does when its app is opened while its rule forbids it.",
        discussion: """
            notice: a desktop notice at once, naming the challenge, what is at stake and the way out; \
            minimize: the notice, and the window moved out of sight (X11, sway, Hyprland, GNOME, KDE \
            Plasma); close: the notice, and the application asked to close the window, as its close \
            button would (never a process killed); off: nothing. A monitor that follows the focused \
            window does it (`screenmates monitor --source x11|sway|hyprland|gnome|kde|terminal|auto`); \
            the terminal only gives the notice. `screenmates notify test --challenge ID` shows the notice.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    @Argument(help: ArgumentHelp("What it does.", valueName: "notice|minimize|close|off"))
    var action: OpenedAction

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let stored = try home.setWhenOpened(id: id.lowercased(), action)
            print("Challenge \(stored.challenge.id): \(stored.challenge.summary)." + WhenOpenedText.sentence(action))
            return 0
        }
    }
}

struct ChallengeForfeitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forfeit", abstract: "Give a challenge up: it costs its penalty.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    @Flag(help: "Do not ask first.")
    var yes = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let stored = try home.challenge(id: id)
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
            let result = try home.forfeit(stored)
            switch result {
            case .forfeited(let notice):
                print(notice.map { "\($0.title). \($0.body)" } ?? "Challenge \(id) given up.")
            case .alreadyDecided(let outcome):
                print("Challenge \(id) has ended (\(outcome.rawValue)); nothing changed.")
            case .unknown:
                throw AppError("There is no challenge \(SafeText.displayable(id)).")
            }
            await home.tellGroup(about: stored)
            return 0
        }
    }
}
