import Foundation
import GRDB

/// A member with write access to the shared group-store file who writes it by hand, with GRDB,
/// past every check the store makes: CHECK constraints ignored, foreign keys off.
struct HostileMember {
    let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(10)
        configuration.label = "hostile member"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA ignore_check_constraints = ON") }
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Runs each statement in one transaction.
    func execute(_ statements: String...) throws {
        try queue.write { db in
            for statement in statements { try db.execute(sql: statement) }
        }
    }

    /// Runs one statement with arguments.
    func execute(_ statement: String, arguments: StatementArguments) throws {
        try queue.write { db in try db.execute(sql: statement, arguments: arguments) }
    }

    /// The first column of the first row of `query`.
    func value<Value: DatabaseValueConvertible>(_ query: String) throws -> Value? {
        try queue.read { db in try Value.fetchOne(db, sql: query) }
    }
}
