/// Everything a key can ask the dashboard to do.
public enum Action: String, Hashable, Sendable, CaseIterable {
    case quit
    case help
    case refresh
    case back
    case scrollUp
    case scrollDown
    case pageUp
    case pageDown
    case nextPeriod
    case previousPeriod
    case group
    case createGroup
    case joinGroup
    case leaveGroup
    case notices
    case debug
    case testNotice
    case syncNow
    /// Debug panel: move a simulated clock to the day's reset.
    case endOfDay
    /// Debug panel: forget this home's data (after a confirmation).
    case clearData
    case history
    case settings
    /// Settings screen: change the selected setting (flip a switch, hide an app, or open the
    /// new app's name on an "add" row). The period keys (←/→) step its numbers.
    case change
    case removeApp
    /// The challenges screen: yours and the group's; create, join, give up.
    case challenges
    /// Coins and badges.
    case profile
    /// The group's weeks and each member's settled result.
    case week

    /// The screen this action opens (and, pressed there, closes), if it opens one. Its screen's
    /// footer leaves it out: `esc back` is there, and a key naming the screen one is on reads as
    /// an offer to go there.
    public var opens: ScreenKind? {
        switch self {
        case .help: .help
        case .group: .group
        case .notices: .notices
        case .debug: .debug
        case .history: .history
        case .settings: .settings
        case .challenges: .challenges
        case .profile: .profile
        case .week: .week
        default: nil
        }
    }
}

/// The screens a binding can apply to. The first-run setup has none of its own: it takes
/// every key as typing or choosing, and its few keys are hinted on its own screens. Nor do the
/// group screen's modes (typing a code, choosing a goal, confirming a leave).
public enum ScreenKind: String, Hashable, Sendable, CaseIterable {
    case dashboard
    case help
    case group
    case notices
    case debug
    case tooSmall
    case history
    case settings
    /// The screens about the games take every key themselves and hint them on screen.
    case challenges
    case profile
    case week
}

/// A key binding as data: the keys, the short label and the help text. One table feeds the
/// footer, the help screen and (later) the config file, so they can never disagree.
public struct KeyBinding: Hashable, Sendable {
    public var action: Action
    public var keys: [KeyInput]
    /// Short name in the footer, e.g. `?`.
    public var label: String
    /// What it does, e.g. `help`.
    public var summary: String
    /// A shorter wording for a footer too narrow for every key's `summary` (`test` for `test
    /// notice`); the summary itself where it is short already.
    public var shortSummary: String
    /// Screens where the binding works.
    public var screens: Set<ScreenKind>
    /// Whether the footer shows it (the help screen shows all).
    public var inFooter: Bool

    public init(
        _ action: Action, keys: [KeyInput], label: String? = nil, summary: String, short: String? = nil,
        screens: Set<ScreenKind>, inFooter: Bool = true
    ) {
        self.action = action
        self.keys = keys
        self.label = label ?? keys.map(\.label).joined(separator: "/")
        self.summary = summary
        self.shortSummary = short ?? summary
        self.screens = screens
        self.inFooter = inFooter
    }
}

/// The key table: every binding, in the order the footer and the help screen list them.
/// The first binding that holds a key on a screen wins, so a key bound twice on one screen is
/// a mistake (a test checks the standard table for it).
public struct KeyTable: Hashable, Sendable {
    public var bindings: [KeyBinding]

    public init(bindings: [KeyBinding]) { self.bindings = bindings }

    public static let standard = KeyTable(bindings: [
        KeyBinding(
            .quit, keys: [.character("q")], summary: "quit",
            screens: [.dashboard, .help, .group, .notices, .tooSmall, .history, .settings, .debug]),
        KeyBinding(.help, keys: [.character("?")], summary: "help", screens: [.dashboard, .help]),
        KeyBinding(.group, keys: [.character("g")], summary: "group", screens: [.dashboard, .group]),
        // Out of the footer: the dashboard is live, and the row has room for the challenges.
        KeyBinding(
            .refresh, keys: [.character("r"), .function(5), .control("l")], label: "r", summary: "refresh",
            screens: [.dashboard], inFooter: false),
        KeyBinding(
            .nextPeriod, keys: [.tab, .right, .character("l")], label: "tab", summary: "today/week/month",
            short: "period", screens: [.dashboard]),
        KeyBinding(
            .previousPeriod, keys: [.backTab, .left], label: "shift-tab", summary: "previous period",
            screens: [.dashboard], inFooter: false),
        // After the period keys, so that an 80-column footer keeps them (help lists everything).
        KeyBinding(.history, keys: [.character("h")], summary: "history", screens: [.dashboard, .history]),
        KeyBinding(.settings, keys: [.character("s")], summary: "settings", screens: [.dashboard, .settings]),
        KeyBinding(.notices, keys: [.character("n")], summary: "notices", screens: [.dashboard, .notices]),
        KeyBinding(.challenges, keys: [.character("c")], summary: "challenges", screens: [.dashboard]),
        KeyBinding(
            .profile, keys: [.character("p")], summary: "coins and badges", screens: [.dashboard], inFooter: false),
        KeyBinding(.week, keys: [.character("w")], summary: "group's weeks", screens: [.dashboard], inFooter: false),
        KeyBinding(
            .debug, keys: [.character("D")], summary: "debug panel", screens: [.dashboard, .debug], inFooter: false),
        KeyBinding(.testNotice, keys: [.character("t")], summary: "test notice", short: "test", screens: [.debug]),
        KeyBinding(.syncNow, keys: [.character("u")], summary: "sync now", short: "sync", screens: [.debug]),
        KeyBinding(.endOfDay, keys: [.character("e")], summary: "end the day", short: "end day", screens: [.debug]),
        KeyBinding(
            .clearData, keys: [.character("x")], summary: "clear local data", short: "clear", screens: [.debug]),
        KeyBinding(
            .scrollDown, keys: [.down, .character("j")], label: "↓/j", summary: "scroll down", short: "down",
            screens: [.dashboard, .notices, .help, .debug], inFooter: false),
        KeyBinding(
            .scrollUp, keys: [.up, .character("k")], label: "↑/k", summary: "scroll up", short: "up",
            screens: [.dashboard, .notices, .help, .debug], inFooter: false),
        KeyBinding(
            .pageDown, keys: [.pageDown, .character(" ")], label: "pgdn", summary: "next page",
            screens: [.dashboard], inFooter: false),
        KeyBinding(
            .pageUp, keys: [.pageUp], label: "pgup", summary: "previous page", screens: [.dashboard],
            inFooter: false),
        KeyBinding(
            .createGroup, keys: [.character("c")], summary: "create a group", short: "create", screens: [.group]),
        KeyBinding(.joinGroup, keys: [.character("j")], summary: "join by code", short: "join", screens: [.group]),
        KeyBinding(.leaveGroup, keys: [.character("l")], summary: "leave", screens: [.group]),
        // Arrows only: `j` joins there.
        KeyBinding(
            .scrollDown, keys: [.down], summary: "more members", screens: [.group], inFooter: false),
        KeyBinding(.scrollUp, keys: [.up], summary: "members above", screens: [.group], inFooter: false),
        // The settings screen's own meanings of the arrows: they choose a setting and step its
        // value (on an application ActivityWatch saw, ← files it as vice and → as productive),
        // so the help lists them under that screen.
        KeyBinding(
            .scrollDown, keys: [.down, .character("j")], label: "↓/j", summary: "next setting", screens: [.settings],
            inFooter: false),
        KeyBinding(
            .scrollUp, keys: [.up, .character("k")], label: "↑/k", summary: "previous setting",
            screens: [.settings], inFooter: false),
        KeyBinding(
            .nextPeriod, keys: [.right, .character("l"), .tab], label: "→", summary: "next value",
            screens: [.settings], inFooter: false),
        KeyBinding(
            .previousPeriod, keys: [.left, .backTab], label: "←", summary: "previous value", screens: [.settings],
            inFooter: false),
        // What the arrows do on an application ActivityWatch saw: lines for the help only (the
        // keys are bound above).
        KeyBinding(
            .nextPeriod, keys: [], label: "→", summary: "mark productive", screens: [.settings],
            inFooter: false),
        KeyBinding(
            .previousPeriod, keys: [], label: "←", summary: "mark vice", screens: [.settings], inFooter: false),
        KeyBinding(
            .change, keys: [.enter, .character(" ")], label: "enter", summary: "switch, hide, add", short: "change",
            screens: [.settings]),
        KeyBinding(
            .removeApp, keys: [.character("d"), .delete], label: "d", summary: "remove app", short: "remove",
            screens: [.settings]),
        KeyBinding(
            .back, keys: [.escape], summary: "back", screens: [.help, .group, .history, .settings, .notices, .debug]),
    ])

    /// The action bound to `key` on `screen`, if any.
    public func action(for key: KeyInput, on screen: ScreenKind) -> Action? {
        bindings.first { $0.screens.contains(screen) && $0.keys.contains(key) }?.action
    }

    /// The bindings the footer shows on `screen`, in table order: those marked for it, but not
    /// the key that opens the screen itself.
    public func footer(for screen: ScreenKind) -> [KeyBinding] {
        bindings.filter { $0.inFooter && $0.screens.contains(screen) && $0.action.opens != screen }
    }

    /// Every binding that works on `screen`, for the help screen.
    public func all(for screen: ScreenKind) -> [KeyBinding] {
        bindings.filter { $0.screens.contains(screen) }
    }
}
