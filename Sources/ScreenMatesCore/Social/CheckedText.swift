/// A value that is text checked when it is made (a group code, a display name, a user id):
/// decoded through the same check, so a text that fails it is corrupt data carrying the
/// check's message, and encoded as the text itself.
public protocol CheckedText: Codable {
    associatedtype Failure: ExplainedError
    var value: String { get }
    init(validating raw: String) throws(Failure)
}

extension CheckedText {
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(validating: raw)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
