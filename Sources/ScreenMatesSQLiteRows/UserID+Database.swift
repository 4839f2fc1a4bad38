import GRDB
import ScreenMatesCore

/// A user id is kept as its text. Read back, text that is not a user id is no value of this
/// type: `Row.checked` reports it as `UnreadableValue`, which each store calls damage.
extension UserID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { value.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UserID? {
        guard let text = String.fromDatabaseValue(dbValue) else { return nil }
        return try? UserID(validating: text)
    }
}
