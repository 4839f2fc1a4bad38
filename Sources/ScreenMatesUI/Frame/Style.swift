/// What a piece of text means, which the theme turns into colours. Views speak in roles, never
/// in colours, so themes, `NO_COLOR` and 8-colour terminals all work from the same frames.
public enum ColorRole: String, Hashable, Sendable, Codable, CaseIterable {
    case text
    case muted
    case accent
    case title
    case border
    case header
    case good
    case warning
    case critical
    case over
    case highlight
    case barEmpty
    case key
    case error
}

/// A cell's look: a colour role plus attributes.
public struct Style: Hashable, Sendable {
    public var role: ColorRole
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(
        _ role: ColorRole = .text, bold: Bool = false, dim: Bool = false, reverse: Bool = false,
        underline: Bool = false
    ) {
        self.role = role
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()

    public func bolded() -> Style {
        var copy = self
        copy.bold = true
        return copy
    }
}
