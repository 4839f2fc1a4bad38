/// How a catalogue app shows up on a desktop: the names usage sources report for it, and for a
/// site that lives inside a browser, the words its window titles carry.
public struct DesktopAppRule: Hashable, Sendable, Codable {
    /// The catalogue id (`firefox`, `youtube`).
    public var id: String
    /// Application names as sources report them (X11 class, Wayland app id, process name),
    /// matched ignoring case: `firefox`, `Code`, `code-oss`, `org.gnome.Nautilus`.
    public var names: [String]
    /// Title fragments that place a browser window on this app (`YouTube`), ignoring case.
    public var titles: [String]
    /// Whether this app is a web browser, whose windows are placed by their titles first.
    public var browser: Bool

    public init(id: String, names: [String] = [], titles: [String] = [], browser: Bool = false) {
        self.id = id
        self.names = names
        self.titles = titles
        self.browser = browser
    }
}
