import ScreenMatesCore

/// The screens' state and how a key changes it: keys in, state and requests out. Pure, so
/// every screen transition is tested without a terminal.
public struct ScreensModel: Hashable, Sendable {
    /// Which screen fills the terminal. The "too small" screen is not one of them: it depends
    /// on the size alone and shows over any screen until the terminal is big enough again.
    public enum Screen: Hashable, Sendable {
        case dashboard
        case help
        /// First run: apps, display name, group (`setup` holds the flow).
        case setup
        /// The group: code, members, leave, join, create.
        case group
        /// The log of notices, newest first.
        case notices
        /// State for finding out what is going on: ids, paths, sync, notice records.
        case debug
        /// The last 7 days against the goal, week and month totals, streaks.
        case history
        /// Apps, notifications, theme and the numbers behind the day.
        case settings
        /// Challenges: the user's and the group's, create, join, give up.
        case challenges
        /// Coins and badges by category.
        case profile
        /// The group's weeks: each member's settled result.
        case week
    }

    public var screen: Screen
    public var data: DashboardContent?
    public var period: LeaderboardPeriod = .today
    /// First leaderboard row shown.
    public var scroll = 0
    /// First row shown on the notices log (a notice may take several).
    public var noticeScroll = 0
    /// First row of the help shown, where it is taller than the screen.
    public var helpScroll = 0
    /// The first-run flow, while `screen` is `.setup`.
    public var setup: SetupFlow?
    /// The group screen's own state.
    public var groupScreen = GroupScreenState()
    /// The settings screen's own state, while it is open.
    public var settingsScreen: SettingsScreenState?
    /// The debug panel's own state.
    public var debugPanel = DebugPanelState()
    /// The challenges, profile and week screens' own state.
    public var games = GameScreensState()
    public var width: Int
    public var height: Int
    public var keys: KeyTable

    public init(screen: Screen, width: Int, height: Int, data: DashboardContent? = nil, keys: KeyTable = .standard) {
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
        case .dashboard, .setup: return .dashboard
        case .help: return .help
        case .group: return .group
        case .notices: return .notices
        case .debug: return .debug
        case .history: return .history
        case .settings: return .settings
        // They take every key themselves (`handleGameScreen`) and hint them on screen.
        case .challenges: return .challenges
        case .profile: return .profile
        case .week: return .week
        }
    }

    public mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        clampScroll()
    }

    /// Applies one key.
    public mutating func handle(_ key: KeyInput) -> DashboardRequest? {
        if key == .resize { return nil }
        if !isTooSmall, let taken = handleOpenForm(key) { return taken }
        guard let action = keys.action(for: key, on: screenKind) else { return nil }
        let request = perform(action)
        clampScroll()
        return request
    }

    /// A key for what the open screen is in the middle of (the first-run screens, a group
    /// form, the clear confirmation, an app being typed, a game screen's own keys), which takes
    /// it before the key table does; nil when nothing is.
    private mutating func handleOpenForm(_ key: KeyInput) -> DashboardRequest?? {
        if screen == .setup, var flow = setup {
            let effect = flow.handle(key)
            setup = flow
            if effect == .finishSetup {
                setup = nil
                screen = .dashboard
            }
            return .some(effect)
        }
        if screen == .group && (groupScreen.mode != .overview || groupScreen.busy) {
            return .some(groupScreen.busy ? nil : groupScreen.handleMode(key))
        }
        if screen == .debug && debugPanel.confirmingClear {
            return .some(debugPanel.handleConfirmation(key))
        }
        if screen == .settings, settingsScreen?.adding != nil {
            return .some(settingsScreen?.handleTyping(key))
        }
        return handleGameScreen(key)
    }

    /// What an action of the key table does: a request for the program, or a move between and
    /// within the screens.
    private mutating func perform(_ action: Action) -> DashboardRequest? {
        switch action {
        case .quit: return .quit
        case .testNotice: return .sendTestNotice
        case .syncNow: return .syncNow
        case .endOfDay: return .simulateEndOfDay
        case .refresh: return .refresh
        case .change, .removeApp: return settingsScreen?.handle(action)
        case .scrollDown where screen == .settings, .scrollUp where screen == .settings,
            .nextPeriod where screen == .settings, .previousPeriod where screen == .settings:
            return settingsScreen?.handle(action)
        case .scrollDown, .scrollUp, .pageDown, .pageUp, .nextPeriod, .previousPeriod:
            move(action)
        default:
            open(action)
        }
        return nil
    }

    /// Opens (or closes again) the screen or the form an action names.
    private mutating func open(_ action: Action) {
        switch action {
        case .help:
            screen = screen == .help ? .dashboard : .help
            helpScroll = 0
        case .back:
            screen = .dashboard
        case .group:
            screen = screen == .group ? .dashboard : .group
            groupScreen = GroupScreenState()
        case .notices:
            screen = screen == .notices ? .dashboard : .notices
            noticeScroll = 0
        case .createGroup:
            groupScreen.mode = .createGoal
            groupScreen.message = nil
        case .joinGroup:
            groupScreen.mode = .joinCode
            groupScreen.message = nil
        case .leaveGroup:
            if data?.group != nil {
                groupScreen.mode = .confirmLeave
            } else {
                groupScreen.show("You are not in a group.", error: true)
            }
        case .history:
            screen = screen == .history ? .dashboard : .history
        case .debug:
            screen = screen == .debug ? .dashboard : .debug
            debugPanel = DebugPanelState()
        case .clearData:
            debugPanel.confirmingClear = true
            debugPanel.message = nil
        case .settings:
            if screen == .settings {
                screen = .dashboard
            } else if let settings = data?.settings {
                settingsScreen = SettingsScreenState(settings: settings, seen: data?.seenApps ?? [])
                screen = .settings
            }
        case .challenges, .profile, .week:
            openGameScreen(action == .challenges ? .challenges : action == .profile ? .profile : .week)
        default:
            break
        }
    }

    /// Scrolls the open screen, or moves the leaderboard by a page or to another period.
    private mutating func move(_ action: Action) {
        let page = max(1, DashboardLayout(width: width, height: height).leaderboardRows - 1)
        switch action {
        case .scrollDown, .scrollUp:
            let step = action == .scrollDown ? 1 : -1
            switch screen {
            case .notices: noticeScroll += step
            case .help: helpScroll += step
            case .debug: debugPanel.scroll += step
            case .group: groupScreen.memberScroll += step
            default: scroll += step
            }
        case .pageDown: scroll += page
        case .pageUp: scroll -= page
        case .nextPeriod:
            period = period.next
            scroll = 0
        case .previousPeriod:
            period = period.previous
            scroll = 0
        default:
            break
        }
    }

    /// The number of members in the current period's leaderboard.
    public var memberCount: Int { data?.leaderboard(period).count ?? 0 }

    private mutating func clampScroll() {
        let visible = DashboardLayout(width: width, height: height).leaderboardRows
        scroll = max(0, min(scroll, memberCount - visible))
        if screen == .notices { noticeScroll = max(0, min(noticeScroll, NoticesView.maximumScroll(self))) }
        // The help's limit takes a layout of every key: worked out only while it is open (opening
        // it starts at the top).
        if screen == .help {
            helpScroll = max(0, min(helpScroll, HelpView.maximumScroll(keys: keys, width: width, height: height)))
        }
        // Only against facts gathered for the panel: data without them (a refresh that has not
        // gathered them yet) says nothing of how far they reach.
        if screen == .debug, data?.debugLines != nil {
            debugPanel.scroll = max(0, min(debugPanel.scroll, DebugView.maximumScroll(self)))
        }
        if screen == .group {
            groupScreen.memberScroll = max(0, min(groupScreen.memberScroll, GroupView.maximumMemberScroll(self)))
        }
    }

    /// Starts the first-run flow.
    public mutating func beginSetup(_ flow: SetupFlow) {
        setup = flow
        screen = .setup
    }

    /// Replaces the data (a new snapshot from the store), keeping the scroll position valid.
    public mutating func update(_ data: DashboardContent) {
        self.data = data
        if let settings = data.settings, settingsScreen?.settings != settings { settingsScreen?.update(settings) }
        if let seen = data.seenApps { settingsScreen?.updateSeen(seen) }
        clampScroll()
    }
}
