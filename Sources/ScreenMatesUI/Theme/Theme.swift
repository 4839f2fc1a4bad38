import Foundation

/// A colour as themes write it: the terminal's default, one of the eight basic colours, or an
/// RGB value that the terminal layer maps to the nearest colour the terminal has.
public enum ThemeColor: Hashable, Sendable {
    case terminalDefault
    case basic(Int)
    case rgb(red: Int, green: Int, blue: Int)

    public static let basicNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// Parses `default`, a basic colour name, or `#rrggbb`.
    public init?(_ text: String) {
        let lower = text.lowercased()
        if lower == "default" {
            self = .terminalDefault
        } else if let index = ThemeColor.basicNames.firstIndex(of: lower) {
            self = .basic(index)
        } else if lower.hasPrefix("#"), lower.count == 7, let value = Int(lower.dropFirst(), radix: 16) {
            self = .rgb(red: (value >> 16) & 0xFF, green: (value >> 8) & 0xFF, blue: value & 0xFF)
        } else {
            return nil
        }
    }
}

/// How one role looks: colours for rich terminals, a basic-colour fallback for 8-colour ones,
/// and attributes that still carry meaning without any colour (`NO_COLOR`).
public struct RoleLook: Hashable, Sendable {
    public var foreground: ThemeColor
    public var background: ThemeColor
    /// Used when the terminal has only 8 colours.
    public var foreground8: ThemeColor
    public var background8: ThemeColor
    public var bold: Bool
    public var reverse: Bool

    public init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault,
        foreground8: ThemeColor? = nil, background8: ThemeColor? = nil, bold: Bool = false, reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.foreground8 = foreground8 ?? foreground
        self.background8 = background8 ?? background
        self.bold = bold
        self.reverse = reverse
    }
}

/// A colour theme: a look for every role. Read from `assets/themes/NAME.json`. A role the
/// theme leaves out is drawn in the terminal's default colours, without attributes.
public struct Theme: Hashable, Sendable {
    public var name: String
    public var looks: [ColorRole: RoleLook]

    public init(name: String, looks: [ColorRole: RoleLook]) {
        self.name = name
        self.looks = looks
    }

    public func look(_ role: ColorRole) -> RoleLook { looks[role] ?? RoleLook() }

    /// A theme with no colours at all, for `NO_COLOR` / `--no-color`: only attributes remain.
    public static let monochrome = Theme(
        name: "monochrome",
        looks: [
            .header: RoleLook(reverse: true), .title: RoleLook(bold: true), .highlight: RoleLook(bold: true),
            .over: RoleLook(bold: true), .critical: RoleLook(bold: true), .key: RoleLook(bold: true),
            .error: RoleLook(bold: true),
        ])

    /// Parses a theme file. Unknown roles are reported, not ignored, so a typo is found.
    public static func parse(_ data: Data, name: String) throws(ThemeError) -> Theme {
        struct Entry: Decodable {
            var fg: String?
            var bg: String?
            var fg8: String?
            var bg8: String?
            var bold: Bool?
            var reverse: Bool?
        }
        struct File: Decodable {
            var roles: [String: Entry]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw .malformed(name: name, detail: String(describing: error))
        }
        var looks: [ColorRole: RoleLook] = [:]
        for (key, entry) in file.roles {
            guard let role = ColorRole(rawValue: key) else { throw .unknownRole(name: name, role: key) }
            func color(_ text: String?) throws(ThemeError) -> ThemeColor? {
                guard let text else { return nil }
                guard let color = ThemeColor(text) else { throw .badColor(name: name, role: key, value: text) }
                return color
            }
            looks[role] = RoleLook(
                foreground: try color(entry.fg) ?? .terminalDefault,
                background: try color(entry.bg) ?? .terminalDefault,
                foreground8: try color(entry.fg8), background8: try color(entry.bg8), bold: entry.bold ?? false,
                reverse: entry.reverse ?? false)
        }
        return Theme(name: name, looks: looks)
    }
}

/// A theme file that cannot be used, naming the file and the problem.
public enum ThemeError: Error, Hashable, Sendable {
    case malformed(name: String, detail: String)
    case unknownRole(name: String, role: String)
    case badColor(name: String, role: String, value: String)

    public var message: String {
        switch self {
        case .malformed(let name, let detail): "Theme \"\(name)\" is not valid JSON: \(detail)"
        case .unknownRole(let name, let role): "Theme \"\(name)\" names an unknown role \"\(role)\"."
        case .badColor(let name, let role, let value):
            "Theme \"\(name)\", role \"\(role)\": \"\(value)\" is not a colour (use default, a basic colour name or #rrggbb)."
        }
    }
}
