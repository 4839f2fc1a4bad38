import Foundation
import Testing

@testable import ScreenMatesPostgresGroupStore

/// The schema's SQL lives in `Schema/`, compiled in: the levels in `Migrations/*.sql`, every
/// function in `Functions/NAME.sql`. The program runs each file statement by statement, split on
/// lines holding only `;` (plpgsql bodies keep their own semicolons).
@Suite struct PostgresSchemaFileTests {
    private static let schemaFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ScreenMatesPostgresGroupStore/Schema")

    private static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: schemaFolder.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".sql") }.sorted()
    }

    /// The first line of a statement that is not a comment.
    private static func head(_ statement: String) -> String {
        statement.split(separator: "\n").first { !$0.hasPrefix("--") }.map(String.init) ?? ""
    }

    @Test func aFileSplitsOnLinesHoldingOnlyASemicolon() {
        let file = """
            -- a comment before the first statement
            CREATE TABLE t (a int)
            ;
            CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$
            BEGIN
                RETURN 1;
            END $$
              ;
            -- only a comment here
            ;
            """
        let statements = PostgresGroupSchema.statements(of: Array(file.utf8))
        #expect(statements.count == 2, "\(statements)")
        #expect(statements.first?.hasSuffix("CREATE TABLE t (a int)") == true)
        #expect(statements.last?.contains("RETURN 1;\nEND $$") == true, "a body keeps its semicolons")
    }

    /// Each file of `Functions/` is applied, and holds the one function it is named for (with the
    /// triggers that call it and its grant): no function is defined twice, none anywhere else.
    @Test func everyFunctionIsDefinedOnceInTheFileNamedForIt() throws {
        let names = PostgresGroupSchema.functions.map(\.name)
        #expect(Set(names).count == names.count, "listed twice: \(names)")
        #expect(try Self.files(in: "Functions") == names.map { "\($0).sql" }.sorted())
        for function in PostgresGroupSchema.functions {
            let defined = function.statements.filter { Self.head($0).hasPrefix("CREATE FUNCTION") }
            #expect(defined.count == 1, "\(function.name).sql defines \(defined.count) functions")
            #expect(
                defined.first.map(Self.head)?.hasPrefix("CREATE FUNCTION screenmates.\(function.name)(") == true,
                "\(function.name).sql: \(defined.first.map(Self.head) ?? "")")
            for statement in function.statements {
                let head = Self.head(statement)
                let kind = [
                    "CREATE FUNCTION", "CREATE TRIGGER", "GRANT EXECUTE ON FUNCTION screenmates.\(function.name) ",
                ]
                .first { head.hasPrefix($0) || (head + " ").hasPrefix($0) }
                #expect(kind != nil, "\(function.name).sql holds something else: \(head)")
                if head.hasPrefix("CREATE TRIGGER") {
                    #expect(
                        statement.contains("EXECUTE FUNCTION screenmates.\(function.name)()"),
                        "\(function.name).sql makes a trigger for another function: \(head)")
                }
            }
        }
        for migration in PostgresGroupSchema.migrations {
            for statement in migration.statements {
                let head = Self.head(statement)
                #expect(
                    !head.contains("FUNCTION") && !head.contains("TRIGGER") && !head.hasPrefix("GRANT EXECUTE"),
                    "level \(migration.version) holds \(head): functions and triggers live in Functions/")
            }
        }
    }

    /// Every level has its file, in order, and each file is one the program knows.
    @Test func everyLevelHasItsFile() throws {
        let versions = PostgresGroupSchema.migrations.map(\.version)
        #expect(versions == Array(1...versions.count))
        let files = try Self.files(in: "Migrations")
        #expect(files.count == versions.count)
        for version in versions {
            #expect(files.contains { $0.hasPrefix("v\(version)_") }, "no file for level \(version)")
        }
    }

    /// What an upgrade runs after the levels: every function dropped, then made again, then only
    /// the grants the files state, after `PUBLIC`'s default right to call them is taken back.
    @Test func functionsAreMadeAgainAndOnlyTheirFilesGrantThem() throws {
        let statements = PostgresGroupSchema.functionStatements
        let heads = statements.map(Self.head)
        let revoke = try #require(
            heads.firstIndex(of: "REVOKE ALL ON ALL FUNCTIONS IN SCHEMA screenmates FROM PUBLIC"))
        #expect(heads.first == "DO $$", "the functions go first")
        let created = heads.indices.filter { heads[$0].hasPrefix("CREATE FUNCTION") }
        let granted = heads.indices.filter { heads[$0].hasPrefix("GRANT ") }
        #expect(created.count == PostgresGroupSchema.functions.count)
        #expect(created.allSatisfy { $0 < revoke } && granted.allSatisfy { $0 > revoke })
        #expect(granted.count == statements.count - revoke - 1, "nothing but grants after the revoke")
        #expect(granted.count > 40 && granted.count < created.count, "the API, not every function")
    }
}
