import GRDB
import ScreenMatesGroupStore
import ScreenMatesSQLiteRows

/// Triggers, views and indexes in the shared file that the store did not create: refused, at
/// opening and at the start of every transaction, since a trigger would run inside each member's
/// writes (a member's own insert could then write coins or rows elsewhere in their name), a view
/// could stand in for a table, and an index on an expression is computed inside every write to its
/// table (one that overflows made every member's profile write fail with "integer overflow").
///
/// What the store creates is found by building its schema in memory, from the same migrations,
/// and reading its `sqlite_schema` back: today that is no trigger and no view, and the indexes its
/// levels make (SQLite's own, for keys, among them). SQLite's own tables (`sqlite_stat1` after an
/// `ANALYZE`) are not the store's and never refused. A file at a newer level than this version's
/// may hold indexes that level added (a compatible level may add one): this version does not know
/// them, so there it refuses only triggers and views.
enum ForeignSchemaObjects {
    /// A trigger, a view or an index, as `sqlite_schema` lists it.
    struct Object: Hashable {
        var type: String
        var name: String
        var sql: String?
    }

    /// The triggers, views and indexes the store's own schema has.
    static let created: Set<Object> = {
        do {
            let queue = try DatabaseQueue()
            try SQLiteGroupSchema.makeMigrator().migrate(queue)
            try queue.write { db in try SQLiteGroupLevels.apply(db, upTo: SQLiteGroupSchema.latestLevel) }
            return try queue.read { db in try objects(db) }
        } catch {
            // An in-memory database of the store's own schema cannot fail; if it did, nothing is
            // taken as the store's own and any trigger or view is refused.
            return []
        }
    }()

    static func objects(_ db: Database) throws -> Set<Object> {
        Set(
            try Row.fetchAll(
                db,
                sql: """
                    SELECT type, name, sql FROM sqlite_schema
                    WHERE type IN ('trigger', 'view', 'index') AND name NOT LIKE 'sqlite_stat%'
                    """
            )
            .map { row in
                let table = "sqlite_schema"
                return Object(
                    type: try row.checked("type", in: table), name: try row.checked("name", in: table),
                    sql: try row.checkedIfPresent("sql", in: table))
            })
    }

    /// Throws `.unusable`, naming the first foreign trigger, view or index, when the file holds one.
    static func refuse(_ db: Database, location: String) throws {
        let newer = try SQLiteGroupLevels.installed(db).version > SQLiteGroupSchema.latestLevel
        let foreign = try objects(db).subtracting(created).filter { !newer || $0.type != "index" }
            .sorted { ($0.type, $0.name) < ($1.type, $1.name) }
        guard let first = foreign.first else { return }
        let name = LeftOutRow.quoted(first.name)
        let more = foreign.count > 1 ? " (and \(foreign.count - 1) more)" : ""
        let (what, harm) =
            first.type == "index"
            ? ("an index", "an index there runs inside every write to its table")
            : ("a \(first.type)", "a \(first.type) there could act in your name")
        throw GroupStoreError.unusable(
            location: location,
            detail:
                "it holds \(what) \(name)\(more) that ScreenMates did not create; someone who can write the file added it, and \(harm). Remove it (DROP \(first.type.uppercased()) \(name)) if you trust whoever made it"
        )
    }
}
