import ScreenMatesCore

/// The group screen (`g`): the code to share, the members, and leaving, joining another group
/// or creating one. Leaving asks first.
public struct GroupScreenState: Hashable, Sendable {
    public enum Mode: Hashable, Sendable {
        case overview
        case confirmLeave
        case joinCode
        case createGoal
    }

    public var mode: Mode = .overview
    public var codeInput = TextInput(maximumLength: 16)
    public var goal = 8
    /// The outcome of the last action, or what is wrong with the input.
    public var message: String?
    public var messageIsError = false
    /// Waiting for the group store.
    public var busy = false
    /// First member shown, where the members are more than the screen holds.
    public var memberScroll = 0

    public init() {}

    /// What the code field says about its text right now (nil while empty).
    public var codeVerdict: Result<GroupCode, GroupCodeError>? {
        codeInput.text.isEmpty ? nil : Result { () throws(GroupCodeError) in try GroupCode(validating: codeInput.text) }
    }

    /// Keys while a mode other than the overview is open (the overview's keys come from the key
    /// table). Esc, or any key but `y` when confirming a leave, closes the mode; a message about
    /// the input closes with it.
    mutating func handleMode(_ key: KeyInput) -> DashboardRequest? {
        switch mode {
        case .overview:
            return nil
        case .confirmLeave:
            switch key {
            case .character("y"), .character("Y"):
                mode = .overview
                busy = true
                return .leaveGroup
            default:
                mode = .overview
            }
        case .joinCode:
            switch key {
            case .escape:
                mode = .overview
                message = nil
            case .enter:
                switch codeVerdict {
                case .success(let code)?:
                    busy = true
                    message = nil
                    return .joinGroup(code)
                case .failure(let problem)?:
                    show(problem.message, error: true)
                case nil:
                    show(GroupCodeError.empty.message, error: true)
                }
            default:
                if codeInput.handle(key) { message = nil }
            }
        case .createGoal:
            switch key {
            case .escape:
                mode = .overview
                message = nil
            case .left, .character("-"):
                goal = max(UsageRules.dailyGoalRange.lowerBound, goal - 1)
            case .right, .character("+"):
                goal = min(UsageRules.dailyGoalRange.upperBound, goal + 1)
            case .enter:
                busy = true
                message = nil
                return .createGroup(goal: goal)
            default:
                break
            }
        }
        return nil
    }

    /// The action the application performed for this screen succeeded or failed.
    public mutating func finished(_ message: String, error: Bool) {
        busy = false
        if !error {
            mode = .overview
            codeInput = TextInput(maximumLength: 16)
        }
        show(message, error: error)
    }

    mutating func show(_ text: String, error: Bool) {
        message = text
        messageIsError = error
    }
}
