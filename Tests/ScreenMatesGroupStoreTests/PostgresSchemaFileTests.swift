import Testing

@testable import ScreenMatesPostgresGroupStore

/// The schema's SQL lives in `Migrations/*.sql`, compiled in; the program runs it statement by
/// statement, split on lines holding only `;` (plpgsql bodies keep their own semicolons).
@Suite struct PostgresSchemaFileTests {
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

    /// The first migration: every function it creates is whole, and it ends by granting them.
    @Test func theFirstMigrationHoldsItsTablesFunctionsAndGrants() throws {
        let first = try #require(PostgresGroupSchema.migrations.first)
        #expect(first.version == 1)
        let functions = first.statements.filter { $0.contains("CREATE FUNCTION") }
        #expect(functions.count >= 11)
        for function in functions { #expect(function.hasSuffix("$$"), "\(function.suffix(80))") }
        #expect(first.statements.last?.contains("GRANT EXECUTE ON FUNCTION") == true)
        #expect(first.statements.allSatisfy { !$0.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(";") })
    }
}
