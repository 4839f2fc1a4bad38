/// Where today's vice blocks stand against the daily goal.
///
/// Exactly at the goal is still within the limit: "over" means more blocks than the goal.
public enum LimitState: String, Sendable, Codable, CaseIterable, Comparable {
    /// Below 75 %.
    case under
    /// 75 % or more.
    case warning
    /// 90 % or more.
    case critical
    /// More blocks than the goal.
    case over

    public init(blocksUsed: Int, goal: Int) {
        precondition(goal > 0, "the daily goal must be at least one block")
        if blocksUsed > goal {
            self = .over
        } else if blocksUsed * 10 >= goal * 9 {
            self = .critical
        } else if blocksUsed * 4 >= goal * 3 {
            self = .warning
        } else {
            self = .under
        }
    }

    private var order: Int {
        switch self {
        case .under: 0
        case .warning: 1
        case .critical: 2
        case .over: 3
        }
    }

    public static func < (a: LimitState, b: LimitState) -> Bool { a.order < b.order }
}
