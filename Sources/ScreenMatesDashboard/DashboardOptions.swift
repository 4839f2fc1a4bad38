import Foundation
import ScreenMatesGroupSync

/// How the dashboard was asked to run.
public struct DashboardOptions: Sendable {
    public var demo: Bool
    /// Simulated group-mates a demo brings along, in the demo's own group store (0: none).
    public var mates: Int
    public var speed: Double?
    public var startAt: Date?
    public var seed: UInt64?
    /// Scenario for the demo monitor (a name in `assets/scenarios` or a path).
    public var scenario: String
    /// The theme named on the command line; without one, the theme in the settings.
    public var theme: String?
    public var useColor: Bool
    public var forceASCII: Bool
    /// The group store named on the command line or in the environment; without one, the store
    /// the group was joined through, else the home's default file.
    public var groupStore: GroupStoreLocation?
    /// Ring the terminal bell for each notice.
    public var bell: Bool
    /// Also send each notice to the desktop (terminal escape sequences, or notify-send).
    public var desktop: Bool
    /// A demo on the demo directory: its usage, history and notices start anew each run (the
    /// profile stays).
    public var startAfresh: Bool
    /// The environment the command was started in: what a remembered group store is opened
    /// with (a PostgreSQL user and password, the busy timeout of a shared file).
    public var environment: [String: String]

    public init(
        demo: Bool = false, mates: Int = 0, speed: Double? = nil, startAt: Date? = nil, seed: UInt64? = nil,
        scenario: String = "typical-day", theme: String? = nil, useColor: Bool = true, forceASCII: Bool = false,
        groupStore: GroupStoreLocation? = nil, bell: Bool = false, desktop: Bool = false, startAfresh: Bool = false,
        environment: [String: String] = [:]
    ) {
        self.startAfresh = startAfresh
        self.environment = environment
        self.bell = bell
        self.desktop = desktop
        self.demo = demo
        self.mates = demo ? mates : 0
        self.speed = speed
        self.startAt = startAt
        self.seed = seed
        self.scenario = scenario
        self.theme = theme
        self.useColor = useColor
        self.forceASCII = forceASCII
        self.groupStore = groupStore
    }
}
