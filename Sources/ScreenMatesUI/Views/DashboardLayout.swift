/// Where each part of the dashboard goes for a given terminal size. The three panels take a
/// third of the width each, the last one the remainder, so they always reach the right edge.
public struct DashboardLayout: Hashable, Sendable {
    public let header: Rect
    public let balance: Rect
    public let streak: Rect
    public let today: Rect
    public let leaderboard: Rect
    /// The latest notices, above the footer, on screens tall enough to spare the rows.
    public let notices: Rect?
    public let footer: Rect

    /// Rows of panels under the header.
    static let panelHeight = 6
    /// Screens at least this tall show the notices pane.
    static let noticesMinimumHeight = 30
    /// The pane's rows, its border included.
    static let noticesHeight = 5

    public init(width: Int, height: Int) {
        let screen = Rect(x: 0, y: 0, width: width, height: height)
        let (header, belowHeader) = screen.splitTop(1)
        let (body, footer) = belowHeader.splitBottom(1)
        let (panels, rest) = body.splitTop(Self.panelHeight)
        let third = width / 3
        let columns = panels.columns([third, third, width - 2 * third])
        self.header = header
        self.balance = columns[0]
        self.streak = columns[1]
        self.today = columns[2]
        if height >= Self.noticesMinimumHeight {
            let (leaderboard, notices) = rest.splitBottom(Self.noticesHeight)
            self.leaderboard = leaderboard
            self.notices = notices
        } else {
            self.leaderboard = rest
            self.notices = nil
        }
        self.footer = footer
    }

    /// Member rows that fit in the leaderboard box (inside the border, under the column titles).
    public var leaderboardRows: Int { max(0, leaderboard.height - 3) }
}
