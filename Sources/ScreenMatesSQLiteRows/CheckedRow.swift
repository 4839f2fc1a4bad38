import GRDB

/// A stored value that is missing or of the wrong kind — something only a damaged file or
/// another program can leave. Each store reports it as damage of its file.
public struct UnreadableValue: Error {
    public let table: String
    public let column: String

    public init(table: String, column: String) {
        self.table = table
        self.column = column
    }
}

extension Row {
    /// The value of `column`. GRDB's typed subscripts stop the program on a NULL or a value of
    /// the wrong type; rows read here may come from a damaged or shared file, so this throws instead.
    public func checked<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value {
        guard let value: Value = try checkedIfPresent(column, in: table) else {
            throw UnreadableValue(table: table, column: column)
        }
        return value
    }

    /// The value of `column`, `nil` when it is NULL; a value of the wrong type throws. A number
    /// with a fraction is no integer (GRDB alone would take 1.5 for 1).
    public func checkedIfPresent<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value? {
        guard let raw = self[column] as DatabaseValue? else { throw UnreadableValue(table: table, column: column) }
        if raw.isNull { return nil }
        guard let value = Self.convert(raw, to: Value.self) else { throw UnreadableValue(table: table, column: column) }
        return value
    }

    /// The value of `column` when it holds one of `Value`; nil when it is NULL, missing or of
    /// another kind (where the caller can go on without it).
    public func readable<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
        guard let raw = self[column] as DatabaseValue? else { return nil }
        return Self.convert(raw, to: Value.self)
    }

    private static func convert<Value: DatabaseValueConvertible>(_ raw: DatabaseValue, to: Value.Type) -> Value? {
        if case .double(let number) = raw.storage, Value.self is any FixedWidthInteger.Type,
            number != number.rounded(.towardZero)
        {
            return nil
        }
        return Value.fromDatabaseValue(raw)
    }
}
