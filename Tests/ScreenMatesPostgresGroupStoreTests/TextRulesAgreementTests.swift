import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Testing

@testable import ScreenMatesPostgresGroupStore

/// One rule for display names and one for app ids (`TextRules`), on the clients and the server:
/// the server's sets of scalars are generated from the clients' predicates, and every scalar (of
/// the planes where Unicode assigns most; a dense sample of the others) is judged by both, alone
/// and after a letter. What one takes, the other shows.
///
/// `SCREENMATES_UPDATE_SCHEMA=1 swift test --filter TextRulesAgreementTests` writes the generated
/// files again (and then `PostgresSchemaStructureTests`' statement needs the same).
@Suite
struct TextRulesAgreementTests {
    /// The schema's function files.
    static let functions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/ScreenMatesPostgresGroupStore/Schema/Functions")

    struct Generated: Sendable {
        let name: String
        let source: String
        let what: String
        let predicate: @Sendable (Unicode.Scalar) -> Bool
    }

    static let generated = [
        Generated(
            name: "name_letters", source: "TextRules.isNameLetter",
            what: "the scalars a display name may begin with and hold: letters, digits, the underscore",
            predicate: TextRules.isNameLetter),
        Generated(
            name: "name_marks", source: "TextRules.isNameMark",
            what: "the combining marks that may follow a display name's letters",
            predicate: TextRules.isNameMark),
        Generated(
            name: "app_id_scalars", source: "TextRules.isAppIDScalar",
            what: "the scalars an app id a shared rule names may hold",
            predicate: TextRules.isAppIDScalar),
    ]

    static func file(_ generated: Generated) -> String {
        """
        -- Generated from \(generated.source) (ScreenMatesCore) by TextRulesAgreementTests; do not edit
        -- (SCREENMATES_UPDATE_SCHEMA=1 swift test --filter TextRulesAgreementTests writes it again):
        -- \(generated.what), as the inside of a bracket expression.
        CREATE FUNCTION screenmates.\(generated.name)() RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = screenmates, pg_temp AS $$
            SELECT \(Self.sqlRanges(Self.ranges(generated.predicate)))
        $$
        ;

        """
    }

    @Test func theServersSetsAreGeneratedFromTheClientsRule() throws {
        let update = ProcessInfo.processInfo.environment[PostgresSchemaStructureTests.updateVariable] == "1"
        for generated in Self.generated {
            let url = Self.functions.appending(path: generated.name + ".sql")
            let expected = Self.file(generated)
            if update {
                try expected.write(to: url, atomically: true, encoding: .utf8)
            } else {
                let file = try String(contentsOf: url, encoding: .utf8)
                #expect(file == expected, "\(url.path) is not what \(generated.source) makes: regenerate it")
            }
        }
    }

    /// Every scalar of planes 0, 1 and 14, and every 16th of the others.
    static let sample: [Unicode.Scalar] = (UInt32(1)...0x10FFFF).compactMap { value in
        let plane = value >> 16
        guard plane == 0 || plane == 1 || plane == 14 || value % 16 == 0 else { return nil }
        return Unicode.Scalar(value)
    }

    /// The client takes `text` as it is (not trimmed, not normalised into other scalars: Swift's
    /// `==` would call canonically equivalent texts equal).
    static func clientTakesName(_ text: String) -> Bool {
        guard let name = try? DisplayName(validating: text) else { return false }
        return name.value.unicodeScalars.elementsEqual(text.unicodeScalars)
    }

    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
    func everyScalarIsJudgedAlikeByTheClientsAndTheServer() async throws {
        let address = try await PostgresTestServer.newPreparedDatabase()
        let names = Self.sample.flatMap { [String($0), "a" + String($0)] }
        let apps = Self.sample.flatMap { [String($0), "a" + String($0)] }
        let server = try await PostgresTestServer.withConnection(to: address) { connection in
            (
                names: try await Self.taken(names, by: "screenmates.is_name", on: connection),
                apps: try await Self.taken(apps, by: "screenmates.is_app_id", on: connection)
            )
        }
        var differ: [String] = []
        for (index, name) in names.enumerated() where Self.clientTakesName(name) != server.names.contains(index) {
            differ.append(
                "name \(Self.spelled(name)): the server \(server.names.contains(index) ? "takes" : "refuses") it")
        }
        for (index, app) in apps.enumerated() where TextRules.isAppID(app) != server.apps.contains(index) {
            differ.append(
                "app id \(Self.spelled(app)): the server \(server.apps.contains(index) ? "takes" : "refuses") it")
        }
        #expect(differ.isEmpty, "\(differ.count) differ, first \(differ.prefix(20))")
        #expect(names.indices.contains { server.names.contains($0) }, "some names are taken")
    }

    /// The bounds: 20 letters, 60 scalars in all (a letter with two marks that compose with
    /// nothing, twenty times), 64 scalars of an app id; and a long pile of marks is refused by
    /// its count.
    @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipNote))
    func theLengthsAreTheSameOnBothSides() async throws {
        let address = try await PostgresTestServer.newPreparedDatabase()
        let marked = "x\u{336}\u{336}"
        let names = [
            String(repeating: "a", count: 20), String(repeating: "a", count: 21), String(repeating: "名", count: 20),
            String(repeating: marked, count: 20), String(repeating: marked, count: 20) + "\u{336}",
            "a" + String(repeating: "\u{336}", count: 59), "a" + String(repeating: "\u{336}", count: 160_000),
        ]
        let apps = [String(repeating: "a", count: 64), String(repeating: "a", count: 65), "", "com.example.app"]
        let server = try await PostgresTestServer.withConnection(to: address) { connection in
            (
                names: try await Self.taken(names, by: "screenmates.is_name", on: connection),
                apps: try await Self.taken(apps, by: "screenmates.is_app_id", on: connection)
            )
        }
        #expect(names.indices.filter { Self.clientTakesName(names[$0]) } == [0, 2, 3, 5])
        #expect(server.names.sorted() == [0, 2, 3, 5])
        #expect(apps.indices.filter { TextRules.isAppID(apps[$0]) } == [0, 3])
        #expect(server.apps.sorted() == [0, 3])
        // Counted before it is trimmed or normalised.
        #expect(throws: DisplayNameError.tooManyScalars(160_001)) { try DisplayName(validating: names[6]) }
    }

    /// The indexes of `texts` that `function` takes, asked in batches.
    static func taken(_ texts: [String], by function: String, on connection: PostgresConnection) async throws
        -> Set<Int>
    {
        var taken = Set<Int>()
        var start = 0
        while start < texts.count {
            let batch = Array(texts[start..<min(start + 20_000, texts.count)])
            var query = PostgresQuery(
                unsafeSQL: "SELECT i::bigint FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i) WHERE \(function)(n)")
            query.binds.append(batch)
            for try await index in try await connection.query(query, logger: Logger(label: "tests")).decode(Int64.self)
            {
                taken.insert(start + Int(index) - 1)
            }
            start += batch.count
        }
        return taken
    }

    static func spelled(_ text: String) -> String {
        text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    /// The scalars `predicate` takes, as ranges, lowest first.
    static func ranges(_ predicate: (Unicode.Scalar) -> Bool) -> [ClosedRange<UInt32>] {
        var ranges: [ClosedRange<UInt32>] = []
        var start: UInt32?
        var last: UInt32 = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), predicate(scalar) else { continue }
            if start != nil, last + 1 == value {
                last = value
                continue
            }
            if let first = start { ranges.append(first...last) }
            start = value
            last = value
        }
        if let first = start { ranges.append(first...last) }
        return ranges
    }

    /// `ranges` as the inside of a bracket expression of PostgreSQL's regular expressions:
    /// `\uXXXX-\uXXXX` (`\UXXXXXXXX` above the BMP), in quoted SQL strings of at most 90
    /// characters, one a line: strings separated by a line break are one constant to PostgreSQL,
    /// with nothing to concatenate when it runs.
    static func sqlRanges(_ ranges: [ClosedRange<UInt32>]) -> String {
        func escaped(_ value: UInt32) -> String {
            value <= 0xFFFF
                ? "\\u" + String(format: "%04X", value)
                : "\\U" + String(format: "%08X", value)
        }
        var lines: [String] = []
        var line = ""
        for range in ranges {
            let part =
                range.count == 1
                ? escaped(range.lowerBound) : escaped(range.lowerBound) + "-" + escaped(range.upperBound)
            if line.count + part.count > 90 {
                lines.append(line)
                line = ""
            }
            line += part
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { "'\($0)'" }.joined(separator: "\n        ")
    }
}
