import ScreenMatesCore

/// The role that shows a limit state.
extension LimitState {
    public var role: ColorRole {
        switch self {
        case .under: .good
        case .warning: .warning
        case .critical: .critical
        case .over: .over
        }
    }

    /// Words for the state, as the Today panel says it.
    public var phrase: String {
        switch self {
        case .under: "under the limit"
        case .warning: "75% reached"
        case .critical: "90% reached"
        case .over: "over the limit"
        }
    }
}
