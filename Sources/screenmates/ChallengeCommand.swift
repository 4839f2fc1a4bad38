import ArgumentParser
import Foundation
import Logging
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

/// `screenmates challenge create | join | list | show | forfeit`.
struct ChallengeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenge", abstract: "Challenges with coins at stake: your own, or your group's.",
        discussion: """
            A challenge holds you to a rule over a span of days: at most N blocks a day (of one app \
            or all vice apps), none of an app in quiet hours, or every day within the limit. It is \
            decided from your blocks the moment the rule is broken (the penalty) or when the span \
            ends (the reward), by whatever records them: the monitor, a dashboard, these commands. \
            A group challenge (create --group) is open to every member of your group until its first \
            day ends; each participant's part is decided from their own blocks, and the group sees \
            who is still in, who failed and who finished — never an app or a block of theirs.
            """,
        subcommands: [
            ChallengeCreateCommand.self, ChallengeJoinCommand.self, ChallengeListCommand.self,
            ChallengeShowCommand.self, ChallengeForfeitCommand.self,
        ])
}

/// A home opened for the challenge, coin, ranking and week commands, with everything decided
/// that the blocks decide.
struct ChallengeHome {
    let home: HomeDirectory
    let global: GlobalOptions
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
                speed: clockOptions.speed, startAt: clockOptions.startInstant, store: store, publish: false,
                timeZone: machineTimeZone
            ).clock
            let logger = LogSetup.bootstrap(home: home)
            try ChallengeReferee(clock: clock, timeZone: machineTimeZone, logger: logger).settle(store)
            return ChallengeHome(
                home: home, global: global, store: store, settings: settings, clock: clock,
                calendar: DayCalendar(timeZone: machineTimeZone.current(), dayStartHour: settings.dayStartHour))
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    func challenges() throws(AppError) -> [StoredChallenge] {
        do { return try store.challenges() } catch { throw AppError(error) }
    }

    /// The user's group and its games, against the group store it was joined through; nil
    /// outside a group.
    func groupGames() throws(AppError) -> (games: GroupGames, location: GroupStoreLocation)? {
        guard let membership = settings.group else { return nil }
        let location = try global.resolveGroupStore(home: home, settings: settings)
        return (
            GroupGames(
                local: store, membership: membership, userID: settings.userID, clock: clock, calendar: calendar),
            location
        )
    }

    /// What the group's games look like now: exchanged with the group store (settling, booking,
    /// reporting) or, with `exchanging` false, only read; the cached ones, marked offline, when
    /// the store is out of reach. Nil outside a group.
    func games(exchanging: Bool = true) async throws(AppError) -> GamesRead? {
        guard let (games, location) = try groupGames() else { return nil }
        do {
            let snapshot = try await location.using { store throws(GroupStoreError) in
                exchanging ? try await games.exchange(with: store).snapshot : try await games.fetch(from: store)
            }
            return GamesRead(snapshot: snapshot, offline: false)
        } catch {
            guard error.isTransient else { throw AppError(error.message) }
            return GamesRead(snapshot: games.cached(), offline: true)
        }
    }

    /// Every challenge of the user's, and the group's ones they have not joined, newest first.
    func summaries(_ games: GamesRead?) throws(AppError) -> [ChallengeSummary] {
        ChallengeSummary.all(
            stored: try challenges(), games: games?.snapshot, settings: settings, calendar: calendar, now: clock.now())
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }
}

/// The group's games as a command read them.
struct GamesRead {
    var snapshot: GroupGamesSnapshot?
    /// The group store was out of reach: the snapshot is the cached one (or none).
    var offline: Bool

    /// For a line under a listing.
    var offlineNote: String? {
        guard offline else { return nil }
        let when = snapshot.map { " (as of \(TimeFormat.iso8601($0.fetchedAt)))" } ?? ""
        return "The group store is out of reach: the group's part is as last seen\(when)."
    }
}
