import GRDB

/// A stored value that is missing or of the wrong kind — something only a damaged file or
/// another program can leave. The store reports it as damage (`.unusable`), never a crash.
struct UnreadableValue: Error {
    let table: String
    let column: String
}

extension Row {
    /// The value of `column`. GRDB's typed subscripts stop the program on a NULL or a value of
    /// the wrong type; the shared file may have been written by anyone, so this throws instead.
    func checked<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value {
        guard let value: Value = try checkedIfPresent(column, in: table) else {
            throw UnreadableValue(table: table, column: column)
        }
        return value
    }

    /// The value of `column`, `nil` when it is NULL; a value of the wrong type throws.
    func checkedIfPresent<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value? {
        guard let raw = self[column] as DatabaseValue? else { throw UnreadableValue(table: table, column: column) }
        if raw.isNull { return nil }
        guard let value = Value.fromDatabaseValue(raw) else { throw UnreadableValue(table: table, column: column) }
        return value
    }
}
