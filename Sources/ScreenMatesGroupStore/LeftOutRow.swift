import ScreenMatesCore

/// A row a group store held that a reader left out because it cannot be right: what it was, which
/// one, and why — what the log and the debug panel name, while the rest of the group still shows.
///
/// Every part is displayable: the key is made from what the row itself says (a user id, a date, a
/// challenge id), so it is neutralised and cut short here, once, whatever another member wrote.
public struct LeftOutRow: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of row, in the product's words.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case group
        case member
        case dayTotal = "day total"
        case challenge
        case participant
        case coins
        case publicStanding = "public standing"
        case weekResult = "week result"
        case settlementRules = "settlement rules"
        case rulesChange = "change of the settlement rules"
        case machine
        case machineDayTotal = "machine's day total"
    }

    public let kind: Kind
    /// Which row: "bo234567", "bo234567 2026-11-17", "vzxq58 bo234567".
    public let key: String
    /// Why it was left out: "blocks_today is -1; a day holds 0 to 1440 blocks".
    public let reason: String

    /// The longest key kept, in characters: enough to tell rows apart, too short to flood a line.
    public static let maximumKeyLength = 40

    public init(_ kind: Kind, key: String, reason: String) {
        self.kind = kind
        self.key = Self.displayable(key, limit: Self.maximumKeyLength)
        self.reason = Self.displayable(reason, limit: 200)
    }

    /// "member bo234567: display_name is not a display name".
    public var description: String { "\(kind.rawValue) \(key): \(reason)" }

    /// Text from a row, made safe to show and cut to `limit` characters: its beginning and its
    /// end around a "…", so two long keys that differ only at the end stay apart. Only the
    /// scalars at either end are looked at (a row may hold megabytes).
    static func displayable(_ raw: String, limit: Int) -> String {
        let scalars = raw.unicodeScalars
        let end =
            scalars.index(scalars.startIndex, offsetBy: limit * 4, limitedBy: scalars.endIndex) ?? scalars.endIndex
        let safe = SafeText.displayable(String(scalars[..<end]))
        guard safe.count > limit || end != scalars.endIndex else { return safe }
        let tailLength = limit / 4
        let tail = SafeText.displayable(String(String.UnicodeScalarView(scalars.suffix(tailLength * 4))))
        return String(safe.prefix(limit - tailLength - 1)) + "…" + String(tail.suffix(tailLength))
    }

    /// Text from a row, quoted for a reason: "\"bo\u{FFFD}[2J\"".
    public static func quoted(_ raw: String) -> String {
        "\"\(displayable(raw, limit: maximumKeyLength))\""
    }
}
