import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore
import ScreenMatesUI

/// A home's games as the challenges, profile and week screens see and change them: the coins,
/// challenges, badges and the group's weeks they draw (`gamesData`), and a challenge created,
/// joined or given up (`perform`). Each reads the home's store and the group's games as
/// `GroupLink` last saw them; nothing here draws or reads a key.
public struct HomeGames: Sendable {
    public let local: LocalStore
    public let clock: any AppClock
    public let calendar: DayCalendar
    /// The user's group's games, nil outside a group.
    public let games: GroupGames?
    public let location: GroupStoreLocation?

    public init(
        local: LocalStore, clock: any AppClock, calendar: DayCalendar, games: GroupGames?,
        location: GroupStoreLocation?
    ) {
        self.local = local
        self.clock = clock
        self.calendar = calendar
        self.games = games
        self.location = location
    }

    /// The screens' data: coins, challenges (the user's and the group's open ones), badges and
    /// the group's weeks, from the home's store and `snapshot` (the group's part as last seen).
    /// `names` are the group's members' names by user id.
    public func gamesData(
        settings: UserSettings, snapshot: GroupGamesSnapshot?, offline: Bool, names: [UserID: String]
    ) -> GamesData {
        let now = clock.now()
        let today = calendar.day(containing: now)
        let ledger = (try? local.coinLedger()) ?? CoinLedger()
        let stored = (try? local.challenges()) ?? []
        let boards = snapshot?.boards ?? []
        let openBoards = OpenChallenges.cached(in: local)?.boards ?? []
        func participants(_ id: String, openToAll: Bool = false) -> [GamesData.Participant] {
            if openToAll {
                // An open challenge's board across groups, as last read.
                return (openBoards.first { $0.challenge.id == id }?.ranked ?? []).map {
                    GamesData.Participant(
                        rank: $0.rank, name: $0.standing.name, state: $0.standing.state,
                        daysKept: $0.standing.daysKept, isMe: $0.standing.isMe)
                }
            }
            guard let board = boards.first(where: { $0.challenge.id == id }) else { return [] }
            return ChallengeStandings.rank(board.participants).map {
                GamesData.Participant(
                    rank: $0.rank, name: $0.standing.name, state: $0.standing.state, daysKept: $0.standing.daysKept,
                    isMe: $0.standing.userID == settings.userID)
            }
        }
        let mine = Set(stored.map(\.challenge.id))
        let open = boards.filter { !mine.contains($0.challenge.id) }.map { board in
            let c = board.challenge.challenge
            return GamesData.ChallengeRow(
                id: c.id, summary: c.summary, firstDay: c.firstDay, lastDay: c.lastDay, reward: c.reward,
                penalty: c.penalty, state: ChallengeSummary.openState(of: c, calendar: calendar, now: now),
                isGroup: true, joined: false, canJoin: today <= c.firstDay, participants: participants(c.id))
        }
        let own = stored.map { entry in
            let c = entry.challenge
            var row = GamesData.ChallengeRow(
                id: c.id, summary: c.summary, firstDay: c.firstDay, lastDay: c.lastDay, reward: c.reward,
                penalty: c.penalty, state: ChallengeSummary.state(of: entry, calendar: calendar, now: now),
                isGroup: entry.groupCode != nil || entry.openToAll, joined: true, canForfeit: entry.outcome == nil,
                participants: participants(c.id, openToAll: entry.openToAll))
            row.isOpenToAll = entry.openToAll
            return row
        }
        var week: GamesData.WeekData?
        if let snapshot, settings.group != nil {
            let rules = snapshot.schedule.rules(on: today)
            let unsynced = (try? local.syncState().unsyncedDays) ?? 0
            let byWeek = Dictionary(grouping: snapshot.weeks, by: \.week)
            week = GamesData.WeekData(
                rules: rules, upcoming: snapshot.schedule.upcoming(after: today),
                current: rules.firstDay(ofWeekContaining: today),
                reminder: WeekReminder.text(unsyncedDays: unsynced, today: today, rules: rules),
                weeks: byWeek.keys.sorted(by: >).map { first in
                    GamesData.WeekData.Week(
                        first: first,
                        members: (byWeek[first] ?? []).map { result in
                            GamesData.WeekData.Member(
                                name: names[result.userID] ?? result.userID.value,
                                isMe: result.userID == settings.userID,
                                status: result.status, tally: result.tally, coins: result.coins)
                        }.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) })
                })
        }
        return GamesData(
            coins: ledger.balance,
            ledger: ledger.transactions.reversed().map {
                GamesData.CoinLine(at: $0.at, amount: $0.amount, reason: $0.reason)
            },
            challenges: open + own,
            badges: Dictionary(
                ((try? local.badges()) ?? []).map { ($0.kind, $0.day) }, uniquingKeysWith: { a, _ in a }),
            week: week, inGroup: settings.group != nil, offline: offline, apps: settings.apps)
    }

    /// What the challenges screen asks for.
    public enum Action: Hashable, Sendable {
        case create(ChallengeRequest)
        case join(String)
        case forfeit(String)
    }

    /// Carries out what the challenges screen asked for; the words for its message line, and
    /// whether they say it failed (`ChallengesScreenState.finished`).
    public func perform(_ action: Action) async -> (message: String, error: Bool) {
        let now = clock.now()
        let today = calendar.day(containing: now)
        switch action {
        case .create(let request):
            var generator = SystemRandomNumberGenerator()
            let challenge = Challenge(
                id: String((0..<4).map { _ in "abcdefghjkmnpqrstuvwxyz23456789".randomElement(using: &generator)! }),
                rule: request.rule, firstDay: request.startNow ? today : today.adding(days: 1), days: request.days,
                reward: request.reward, penalty: request.penalty, startsAt: request.startNow ? now : nil)
            if let problem = challenge.problem { return (problem, true) }
            if request.shared {
                guard let games, let location else { return ("You are not in a group.", true) }
                do throws(GroupStoreError) {
                    let shared = try await location.using { store throws(GroupStoreError) in
                        try await games.create(challenge, in: store)
                    }
                    return ("Challenge \(shared.id) shared with the group.", false)
                } catch {
                    return (error.message, true)
                }
            }
            do {
                try local.addChallenge(challenge, createdAt: now)
                return ("Challenge \(challenge.id) starts \(challenge.firstDay == today ? "now" : "tomorrow").", false)
            } catch {
                return (error.message, true)
            }
        case .join(let id):
            guard let games, let location else { return ("You are not in a group.", true) }
            do throws(GroupStoreError) {
                let joined = try await location.using { store throws(GroupStoreError) in
                    try await games.join(id: id, in: store)
                }
                return ("Joined challenge \(joined.id).", false)
            } catch {
                return (error.message, true)
            }
        case .forfeit(let id):
            do {
                switch try local.forfeit(challengeID: id, at: now, day: today) {
                case .forfeited(let notice): return (notice.map { "\($0.title). \($0.body)" } ?? "Given up.", false)
                case .alreadyDecided(let outcome): return ("It had ended (\(outcome.rawValue)); nothing changed.", true)
                case .unknown: return ("There is no challenge \(id).", true)
                }
            } catch {
                return (error.message, true)
            }
        }
    }
}
