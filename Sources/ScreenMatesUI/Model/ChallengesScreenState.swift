import ScreenMatesCore

/// The challenges screen: the list (the user's challenges and the group's open ones, with the
/// selected one's participants), a form for a new one, and giving one up after a confirmation.
/// It takes every key itself while it is open, like the first-run screens.
public struct ChallengesScreenState: Hashable, Sendable {
    public enum Mode: Hashable, Sendable {
        case list
        case create(ChallengeForm)
        /// Asking before the challenge with this id is given up.
        case confirmForfeit(String)
    }

    public var mode = Mode.list
    /// The selected row of the list.
    public var selected = 0
    /// The outcome of the last action, or why it could not be done.
    public var message: String?
    public var messageIsError = false
    /// Waiting for the application to carry out a request.
    public var busy = false

    public init() {}

    /// What a key did.
    public enum Outcome: Hashable, Sendable {
        case stay
        /// Leave the screen.
        case back
        case quit
        /// Ask the application to do this (create, join, give up).
        case request(DashboardRequest)
    }

    /// The application's answer to a request this screen made.
    public mutating func finished(_ text: String, error: Bool) {
        busy = false
        if !error { mode = .list }
        message = text
        messageIsError = error
    }

    public mutating func handle(_ key: KeyInput, data: GamesData?) -> Outcome {
        if busy { return .stay }
        let rows = data?.challenges ?? []
        let inGroup = data?.inGroup ?? false
        switch mode {
        case .create(var form):
            switch key {
            case .escape:
                mode = .list
            case .up, .backTab: form.move(-1, inGroup: inGroup)
            case .down, .tab: form.move(1, inGroup: inGroup)
            case .left: form.step(-1, apps: data?.apps ?? [], inGroup: inGroup)
            case .right, .character(" "): form.step(1, apps: data?.apps ?? [], inGroup: inGroup)
            case .enter:
                busy = true
                message = nil
                mode = .create(form)
                return .request(.createChallenge(form.request))
            default: break
            }
            if case .create = mode { mode = .create(form) }
            return .stay
        case .confirmForfeit(let id):
            mode = .list
            guard key == .character("y") || key == .character("Y") else {
                show("Kept going; nothing changed.", error: false)
                return .stay
            }
            busy = true
            message = nil
            return .request(.forfeitChallenge(id))
        case .list:
            break
        }
        switch key {
        case .escape: return .back
        case .character("q"): return .quit
        case .up, .character("k"): selected = max(0, selected - 1)
        case .down: selected = min(max(0, rows.count - 1), selected + 1)
        case .character("c"):
            mode = .create(ChallengeForm())
            message = nil
        case .character("j"):
            guard let row = row(in: rows), row.canJoin else {
                show("Choose one of your group's open challenges to join.", error: true)
                return .stay
            }
            busy = true
            message = nil
            return .request(.joinChallenge(row.id))
        case .character("f"):
            guard let row = row(in: rows), row.canForfeit else {
                show("Choose one of your challenges that is still running to give up.", error: true)
                return .stay
            }
            mode = .confirmForfeit(row.id)
            message = nil
        default: break
        }
        return .stay
    }

    /// The selected row, kept within the list.
    public func row(in rows: [GamesData.ChallengeRow]) -> GamesData.ChallengeRow? {
        rows.isEmpty ? nil : rows[min(selected, rows.count - 1)]
    }

    mutating func show(_ text: String, error: Bool) {
        message = text
        messageIsError = error
    }
}

/// The state of the screens about the group's games: the challenges screen's, and how far the
/// profile and week screens are scrolled.
public struct GameScreensState: Hashable, Sendable {
    public var challenges = ChallengesScreenState()
    public var profileScroll = 0
    public var weekScroll = 0

    public init() {}

    /// A key on the profile or week screen: ↑/↓ scroll, esc goes back.
    mutating func handleScrolling(_ key: KeyInput, scroll: WritableKeyPath<GameScreensState, Int>) -> Bool? {
        switch key {
        case .escape: return false
        case .up, .character("k"): self[keyPath: scroll] = max(0, self[keyPath: scroll] - 1)
        case .down, .character("j"): self[keyPath: scroll] += 1
        default: break
        }
        return true
    }
}
