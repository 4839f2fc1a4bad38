import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

struct ChallengeListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Your challenges and your group's, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Flag(
        help: """
            Print JSON: an array of {id, rule, state, firstDay, lastDay, days, reward, penalty, outcome, decidedAt, \
            group, joined, participants: [{name, state, rank, daysKept, isMe, decidedAt}]}.
            """)
    var json = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let games = try await home.games()
            let entries = try home.summaries(games)
            if json {
                print(ChallengeHome.json(entries))
            } else if entries.isEmpty {
                print("No challenges yet. Start one: screenmates challenge create --at-most 2 --days 7")
            } else {
                for entry in entries { print(entry.line) }
            }
            if let note = games?.offlineNote { FileHandle.standardError.write(Data("screenmates: \(note)\n".utf8)) }
            return 0
        }
    }
}

struct ChallengeShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "One challenge; a group challenge with its participants' leaderboard.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            let games = try await home.games()
            guard let entry = try home.summaries(games).first(where: { $0.id == id }) else {
                throw AppError(
                    "There is no challenge \(SafeText.displayable(id)); `screenmates challenge list` shows yours.")
            }
            if json {
                print(ChallengeHome.json(entry))
            } else {
                print(entry.line)
                for line in entry.leaderboard { print(line) }
            }
            if let note = games?.offlineNote { FileHandle.standardError.write(Data("screenmates: \(note)\n".utf8)) }
            return 0
        }
    }
}

struct ChallengeJoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join", abstract: "Join one of your group's challenges (until its first day ends).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var clock: ClockOptions

    @Argument(help: "The challenge's id (see `screenmates challenge list`).")
    var id: String

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try ChallengeHome.open(global, clock)
            guard let (games, location) = try home.groupGames() else {
                throw AppError("You are not in a group, so there is no group challenge to join.")
            }
            let challenge: Challenge
            do throws(GroupStoreError) {
                challenge = try await location.using { store throws(GroupStoreError) in
                    try await games.join(id: id.lowercased(), in: store)
                }
            } catch {
                throw AppError(error.message)
            }
            print(
                "Joined challenge \(challenge.id): \(challenge.summary), \(challenge.firstDay) to \(challenge.lastDay)"
                    + (challenge.startsAt.map {
                        " (your blocks count from \(TimeFormat.localMinute($0, timeZone: home.calendar.timeZone)))"
                    } ?? "")
                    + ". Keep it: +\(challenge.reward) coins; break it or give up: -\(challenge.penalty).")
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
            guard let stored = try home.challenges().first(where: { $0.challenge.id == id }) else {
                throw AppError(
                    "There is no challenge \(SafeText.displayable(id)) of yours; `screenmates challenge list` shows them."
                )
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
            // The group hears it now (or with the next exchange, when its store is out of reach).
            if stored.groupCode != nil { _ = try? await home.games() }
            return 0
        }
    }
}
