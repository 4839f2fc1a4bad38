import ScreenMatesCore

/// What the application must do after a key: effects are values, performed by the runtime.
public enum DashboardEffect: Hashable, Sendable {
    case quit
    case refresh
    case saveName(DisplayName)
}

/// The dashboard's state and its update function: keys in, state and effects out. Pure, so
/// every screen transition is tested without a terminal.
public struct DashboardModel: Hashable, Sendable {
    /// Which screen fills the terminal. The "too small" screen is not one of them: it depends
    /// on the size alone and shows over any screen until the terminal is big enough again.
    public enum Screen: Hashable, Sendable {
        case dashboard
        case help
        /// First run: the dashboard asks for a display name.
        case namePrompt
    }

    public var screen: Screen
    public var data: DashboardData?
    public var period: LeaderboardPeriod = .today
    /// First leaderboard row shown.
    public var scroll = 0
    public var nameInput = TextInput(maximumLength: 40)
    /// Shown under the name field after a failed attempt to save.
    public var nameError: String?
    public var width: Int
    public var height: Int
    public var keys: KeyTable

    public init(screen: Screen, width: Int, height: Int, data: DashboardData? = nil, keys: KeyTable = .standard) {
        self.screen = screen
        self.width = width
        self.height = height
        self.data = data
        self.keys = keys
    }

    /// The smallest terminal the dashboard draws in; below it the "too small" screen shows.
    public static let minimumWidth = 60
    public static let minimumHeight = 16

    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// The screen whose key bindings apply now.
    public var screenKind: ScreenKind {
        if isTooSmall { return .tooSmall }
        switch screen {
        case .dashboard, .namePrompt: return .dashboard
        case .help: return .help
        }
    }

    public mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        clampScroll()
    }

    /// Applies one key.
    public mutating func handle(_ key: KeyInput) -> DashboardEffect? {
        if key == .resize { return nil }
        if screen == .namePrompt && !isTooSmall { return handleNamePrompt(key) }
        guard let action = keys.action(for: key, on: screenKind) else { return nil }
        switch action {
        case .quit:
            return .quit
        case .help:
            screen = screen == .help ? .dashboard : .help
        case .back:
            screen = .dashboard
        case .refresh:
            return .refresh
        case .scrollDown:
            scroll += 1
        case .scrollUp:
            scroll -= 1
        case .pageDown:
            scroll += max(1, DashboardLayout(width: width, height: height).leaderboardRows - 1)
        case .pageUp:
            scroll -= max(1, DashboardLayout(width: width, height: height).leaderboardRows - 1)
        case .nextPeriod:
            period = period.next
            scroll = 0
        case .previousPeriod:
            period = period.previous
            scroll = 0
        }
        clampScroll()
        return nil
    }

    private mutating func handleNamePrompt(_ key: KeyInput) -> DashboardEffect? {
        switch key {
        case .escape:
            return .quit
        case .enter:
            do {
                let name = try DisplayName(validating: nameInput.text)
                nameError = nil
                return .saveName(name)
            } catch {
                nameError = error.message
                return nil
            }
        default:
            if nameInput.handle(key) { nameError = nil }
            return nil
        }
    }

    /// The number of members in the current period's leaderboard.
    public var memberCount: Int { data?.leaderboard(period).count ?? 0 }

    private mutating func clampScroll() {
        let visible = DashboardLayout(width: width, height: height).leaderboardRows
        scroll = max(0, min(scroll, memberCount - visible))
    }

    /// Replaces the data (a new snapshot from the store), keeping the scroll position valid.
    public mutating func update(_ data: DashboardData) {
        self.data = data
        clampScroll()
    }
}
