import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// A challenge as `challenge list|show --json` and `status --json` print it: the user's own
/// (personal or group), or one of the group's they have not joined. Keys may be added, never
/// renamed.
public struct ChallengeSummary: Encodable, Sendable {
    /// One participant of a group challenge: name, state and counts only.
    public struct Participant: Encodable, Sendable {
        public var name, state: String
        public var rank, daysKept: Int
        public var isMe: Bool
        @Nullable public var decidedAt: String?
    }

    public var id, rule, state, firstDay, lastDay: String
    public var days, reward, penalty: Int
    @Nullable public var outcome: String?
    @Nullable public var decidedAt: String?
    /// The group's code for a group challenge, null for a personal one.
    @Nullable public var group: String?
    /// Whether the user takes part (always, for a personal one).
    public var joined: Bool
    /// A group challenge's leaderboard, best first (empty for a personal one).
    public var participants: [Participant]
    /// What it does when its app comes to the front while its rule forbids it (`notice`,
    /// `minimize`, `close`, `off`); null for a group challenge the user has not joined.
    @Nullable public var whenOpened: String?
    /// Whether it is open to everyone on the group store (published by its owner); its
    /// `participants` are then its board across groups.
    public var openToAll = false

    /// Every challenge the user has, and the group's ones they have not joined, newest first. The
    /// user's open challenges show their boards from `openBoards`.
    public static func all(
        stored: [StoredChallenge], games: GroupGamesSnapshot?, settings: UserSettings, calendar: DayCalendar,
        now: Date, openBoards: [OpenChallengeBoard] = []
    ) -> [ChallengeSummary] {
        let mine = Set(stored.map(\.challenge.id))
        let boards = games?.boards ?? []
        let open = boards.filter { !mine.contains($0.challenge.id) }.map { board in
            ChallengeSummary(
                board.challenge.challenge,
                state: openState(of: board.challenge.challenge, calendar: calendar, now: now),
                group: settings.group?.code, joined: false,
                participants: participants(of: board, me: settings.userID))
        }
        let own = stored.map { entry in
            let lines =
                entry.openToAll
                ? Self.participants(of: openBoards.first { $0.challenge.id == entry.challenge.id })
                : Self.participants(of: boards.first { $0.challenge.id == entry.challenge.id }, me: settings.userID)
            return ChallengeSummary(entry, calendar: calendar, now: now, participants: lines)
        }
        return open + own
    }

    /// Every challenge open to all on the group store, newest first: the user's copy of one they
    /// joined, or how they may join it.
    public static func openToAll(
        stored: [StoredChallenge], boards: [OpenChallengeBoard], calendar: DayCalendar, now: Date
    ) -> [ChallengeSummary] {
        boards.map { board in
            if let entry = stored.first(where: { $0.openToAll && $0.challenge.id == board.challenge.id }) {
                return ChallengeSummary(entry, calendar: calendar, now: now, participants: participants(of: board))
            }
            var summary = ChallengeSummary(
                board.challenge, state: openState(of: board.challenge, calendar: calendar, now: now), group: nil,
                joined: false, participants: participants(of: board))
            summary.openToAll = true
            return summary
        }
    }

    /// One of the user's own challenges.
    init(_ entry: StoredChallenge, calendar: DayCalendar, now: Date, participants: [Participant]) {
        self.init(
            entry.challenge, state: Self.state(of: entry, calendar: calendar, now: now), group: entry.groupCode,
            joined: true, participants: participants)
        outcome = entry.outcome?.rawValue
        whenOpened = entry.whenOpened.rawValue
        decidedAt = entry.decidedAt.map(TimeFormat.iso8601)
        openToAll = entry.openToAll
    }

    /// A group challenge's leaderboard, best first.
    static func participants(of board: GroupChallengeBoard?, me: UserID) -> [Participant] {
        (board.map { ChallengeStandings.rank($0.participants) } ?? []).map { entry in
            let standing = entry.standing
            return Participant(
                name: standing.name, state: standing.state.title, rank: entry.rank, daysKept: standing.daysKept,
                isMe: standing.userID == me, decidedAt: standing.decidedAt.map(TimeFormat.iso8601))
        }
    }

    /// An open challenge's board across groups, best first.
    static func participants(of board: OpenChallengeBoard?) -> [Participant] {
        (board?.ranked ?? []).map { entry in
            let line = entry.standing
            return Participant(
                name: line.name, state: line.state.title, rank: entry.rank, daysKept: line.daysKept, isMe: line.isMe,
                decidedAt: line.decidedAt.map(TimeFormat.iso8601))
        }
    }

    init(_ c: Challenge, state: String, group: GroupCode?, joined: Bool, participants: [Participant]) {
        id = c.id
        rule = c.summary
        self.state = state
        firstDay = c.firstDay.iso8601
        lastDay = c.lastDay.iso8601
        days = c.days
        reward = c.reward
        penalty = c.penalty
        self.group = group?.value
        self.joined = joined
        self.participants = participants
    }

    /// How one of the user's challenges stands now, in words.
    public static func state(of stored: StoredChallenge, calendar: DayCalendar, now: Date) -> String {
        switch stored.outcome {
        case .kept: return "kept"
        case .broken:
            return "broken"
                + (stored.decidedAt.map { " at \(TimeFormat.localMinute($0, timeZone: calendar.timeZone))" } ?? "")
        case .forfeited: return "given up"
        case nil:
            switch ChallengeJudge(calendar: calendar).verdict(stored.challenge, events: [], goal: { _ in 0 }, now: now)
            {
            case .notStarted: return "starts \(stored.challenge.firstDay)"
            case .refused(let problem): return "never judged: \(problem)"
            default: return "running until the end of \(stored.challenge.lastDay)"
            }
        }
    }

    /// How a group challenge the user has not joined stands for them.
    public static func openState(of challenge: Challenge, calendar: DayCalendar, now: Date) -> String {
        calendar.day(containing: now) <= challenge.firstDay
            ? "open: join it with `screenmates challenge join \(challenge.id)` by the end of \(challenge.firstDay)"
            : "closed to new participants"
    }

    /// One line: the id, the rule, the span, the coins, the state, and a group's counts.
    public var line: String {
        let kind = openToAll ? "[open to all] " : group == nil ? "" : "[group] "
        var text =
            "\(id)  \(kind)\(SafeText.displayable(rule)), \(firstDay) to \(lastDay), +\(reward)/-\(penalty) coins: \(state)"
        if outcome == nil, let whenOpened, whenOpened != OpenedAction.off.rawValue {
            text += " · when opened: \(whenOpened)"
        }
        if !participants.isEmpty {
            let counts = Dictionary(grouping: participants, by: \.state).mapValues(\.count)
            text +=
                " · "
                + ParticipantState.allCases.map(\.title).compactMap { title in counts[title].map { "\($0) \(title)" } }
                .joined(separator: ", ")
        }
        return text
    }

    /// The participants' leaderboard, one a line.
    public var leaderboard: [String] {
        participants.map { p in
            let rank = String(p.rank)
            let name = SafeText.padded(p.name + (p.isMe ? " (you)" : ""), toCells: 24)
            let state = p.state.padding(toLength: 9, withPad: " ", startingAt: 0)
            return "  \(String(repeating: " ", count: max(0, 3 - rank.count)))\(rank)  \(name)  \(state)  "
                + "\(p.daysKept)/\(days) day\(days == 1 ? "" : "s") kept"
        }
    }
}
