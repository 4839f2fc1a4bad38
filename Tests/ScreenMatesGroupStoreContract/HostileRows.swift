import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore

/// A value a member with write access puts in a column by hand.
package enum HostileValue: Hashable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// One row a hostile member plants in a group store, for no engine in particular: its table, its
/// columns as both schemas name them (the group's code left for the planter to add), and what a
/// reader must make of it. The same rows can be planted in a SQLite file (`HostileMember`) or on
/// a PostgreSQL server, and read back through any `GroupStore` (`HostileRowsCheck`).
package struct HostileRow: Sendable {
    package enum Table: String, Sendable, CaseIterable {
        case member
        case dayTotal = "day_total"
        case challenge = "group_challenge"
        case participant = "challenge_participant"
        case coins = "coin_standing"
        case weekResult = "week_result"
        /// The rules' columns of the group's own `group_info` row: planted by an UPDATE.
        case settlementRules = "group_info"
    }

    package struct Column: Sendable {
        package var name: String
        package var value: HostileValue
    }

    package var table: Table
    /// In the order the table declares them.
    package var columns: [Column]
    /// Whether every value is one a client accepts: a reader must return the row.
    package var isRight: Bool
    /// Whether a read of the group meets the row at all: one whose day is beyond every range, or
    /// whose user id joins no member, is never read (so neither returned nor named).
    var isRead: Bool
    /// The user id (or the challenge id) it is known by when it is right.
    var id: String

    package func value(_ column: String) -> HostileValue? { columns.first { $0.name == column }?.value }

    var integers: [String: Int64] {
        Dictionary(
            columns.compactMap { column in
                if case .integer(let number) = column.value { return (column.name, number) }
                return nil
            }, uniquingKeysWith: { first, _ in first })
    }
}

/// Makes hostile rows: mostly right ones (boundary values included, which must come through),
/// the others with one or two values no client accepts — negative counts, 2^63−1, Int64.min,
/// empty and overlong text, control, bidi and zero-width characters, malformed rule JSON — and,
/// where the engine's typing is loose (SQLite), values of the wrong type.
package enum HostileRows {
    /// The challenge every hostile participant row belongs to (created by the test, right).
    package static let challengeID = "base1234"

    /// `count` rows (a member companion for rows that name a user, where the user id is right, so
    /// an engine with foreign keys can hold them), members first. `today` anchors the dates.
    package static func generate(count: Int, today: LocalDate, looseTypes: Bool, seed: UInt64) -> [HostileRow] {
        var rng = SeededGenerator(seed: seed)
        var rows: [HostileRow] = []
        var ruled = false
        for index in 0..<count {
            var table = HostileRow.Table.allCases.randomElement(using: &rng)!
            if table == .settlementRules {
                if ruled { table = .member }
                ruled = true
            }
            let maker = Maker(index: index, today: today, looseTypes: looseTypes)
            let row = maker.row(table, using: &rng)
            if [.dayTotal, .participant, .coins, .weekResult].contains(table),
                case .text(let user)? = row.value("user_id"),
                (try? UserID(validating: user)) != nil
            {
                rows.append(maker.companion(user))
            }
            rows.append(row)
        }
        let order = HostileRow.Table.allCases
        return rows.sorted { order.firstIndex(of: $0.table)! < order.firstIndex(of: $1.table)! }
    }

    /// The values of one column: a right one drawn at random, and wrong ones of the column's own
    /// type (any engine holds them) or of another (SQLite only).
    private struct Spec {
        var name: String
        var right: (inout SeededGenerator) -> HostileValue
        var wrong: [HostileValue] = []
        var hides = false
    }

    private struct Maker {
        let index: Int
        let today: LocalDate
        let looseTypes: Bool

        var userID: String { "h\(index)q" }

        static let extremes: [Int64] = [.min, .min + 1, -1, .max - 1, .max, 1 << 31, 1 << 53 + 1]
        static let badNames = [
            "bo cheats", "", String(repeating: "n", count: 21), String(repeating: "x", count: 10_000),
            "\u{1B}[2Jevil", "\u{202E}live", "a\u{200B}b", "\u{0}bo", "tab\there", "emoji😀", "\u{9B}31m",
        ]

        /// Wrong text values; NUL only where the engine keeps it (PostgreSQL's text cannot), and
        /// only first, since SQLite gives text back up to its first NUL.
        func wrongTexts(_ texts: [String]) -> [HostileValue] {
            texts.filter { looseTypes || !$0.contains("\u{0}") }.map(HostileValue.text)
        }
        static let goodNames = ["ana_2", "José", "名前", String(repeating: "z", count: 20), "B0"]

        func badUserIDs() -> [String] {
            ["h\(index) q", "h\(index)\u{1B}[2J", String(repeating: "u", count: 65) + "\(index)", "h\(index)é"]
        }

        /// An integer column a reader takes within `valid`: right values drawn from `drawn` (its
        /// ends often), wrong ones just outside `valid` and far beyond.
        func integer(_ name: String, _ valid: ClosedRange<Int64>, drawn: ClosedRange<Int64>? = nil) -> Spec {
            let drawn = drawn ?? valid
            return Spec(
                name: name,
                right: { rng in
                    .integer(
                        [drawn.lowerBound, drawn.upperBound, Int64.random(in: drawn, using: &rng)].randomElement(
                            using: &rng)!)
                },
                wrong: (Self.extremes + [valid.lowerBound - 1, valid.upperBound + 1]).filter { !valid.contains($0) }
                    .map(HostileValue.integer) + (looseTypes ? [.text("lots"), .real(2.5)] : []))
        }

        /// A column every Int64 is right for (a version): only another type is wrong.
        func anyInteger(_ name: String) -> Spec {
            Spec(
                name: name, right: { rng in .integer(Self.extremes.randomElement(using: &rng)!) },
                wrong: looseTypes ? [.text("v2")] : [])
        }

        func instant(_ name: String, nullable: Bool = false) -> Spec {
            var spec = integer(name, -2_999_999_999_999_999...2_999_999_999_999_999)
            if nullable {
                let right = spec.right
                spec.right = { rng in Bool.random(using: &rng) ? .null : right(&rng) }
            }
            return spec
        }

        func fixed(_ name: String, _ value: HostileValue) -> Spec { Spec(name: name, right: { _ in value }) }

        func text(_ name: String, right: [String], wrong: [String]) -> Spec {
            Spec(name: name, right: { rng in .text(right.randomElement(using: &rng)!) }, wrong: wrongTexts(wrong))
        }

        var days: ClosedRange<Int64> { Int64(today.dayNumber - 40)...Int64(today.dayNumber) }
        /// The day numbers of the years a store keeps.
        static let storable: ClosedRange<Int64> = -719_162...2_932_896
        /// Day numbers beyond the years a store keeps: no range read meets them.
        static let farDays: [HostileValue] = [.integer(.max), .integer(.min), .integer(2_932_897), .integer(-719_163)]

        func specs(_ table: HostileRow.Table) -> [Spec] {
            let user = text("user_id", right: [userID], wrong: badUserIDs())
            switch table {
            case .member:
                return [
                    user, text("display_name", right: Self.goodNames, wrong: Self.badNames),
                    fixed("name_key", .text("nk\(index)")), integer("blocks_today", 0...1440),
                    integer("day", Self.storable, drawn: days), integer("streak", 0...36_525),
                    instant("last_active", nullable: true),
                    instant("last_updated"), anyInteger("version"), fixed("joined_at", .integer(1_795_000_000_000)),
                ]
            case .dayTotal:
                var date = integer("date", Self.storable, drawn: days)
                date.wrong = Self.farDays
                date.hides = true
                return [
                    user, date, integer("vice_blocks", 0...1440), integer("goal_blocks", 0...96), anyInteger("version"),
                ]
            case .challenge:
                return [
                    text(
                        "id", right: ["hcq\(index)"],
                        wrong: [
                            "HC\(index)Q", "H\(index)", "hcq\(index)-x", String(repeating: "c", count: 17) + "\(index)",
                        ]),
                    text("creator_id", right: ["ana23456", userID], wrong: badUserIDs()),
                    text("rule", right: Self.goodRules, wrong: Self.badRules),
                    challengeFirstDay(), integer("days", 1...365), integer("reward", 0...10_000),
                    integer("penalty", 0...10_000), instant("starts_at", nullable: true), instant("created_at"),
                ]
            case .participant:
                var participant = user
                participant.hides = true  // No member joins it.
                return [
                    fixed("challenge_id", .text(HostileRows.challengeID)), participant,
                    text(
                        "state", right: ParticipantState.allCases.map(\.rawValue),
                        wrong: ["won", "", "IN", "\u{0}in"]),
                    integer("days_kept", 0...365), instant("joined_at"), instant("decided_at", nullable: true),
                ]
            case .coins:
                var owner = user
                owner.hides = true
                return [
                    owner, fixed("display_name", .text("c\(index)")), integer("coins", 0...1_000_000_000),
                    // Its version is not read back (only compared by the store when it writes).
                    integer("badges", 0...1000), fixed("is_public", .integer(1)), fixed("version", .integer(.max)),
                    instant("updated_at"),
                ]
            case .weekResult:
                // Filled in by `weekResult`, whose values depend on each other.
                return []
            case .settlementRules:
                return [
                    integer("week_start", 1...7), integer("kept_day_coins", 0...1000),
                    integer("over_day_coins", 0...1000),
                    text("missing_days", right: ["pending", "worst-case"], wrong: ["never", ""]),
                ]
            }
        }

        func challengeFirstDay() -> Spec {
            var first = integer("first_day", Int64(today.dayNumber - 10)...Int64(today.dayNumber + 10))
            // Years a store keeps but a challenge may not start in (9999), and beyond.
            first.wrong = [.integer(Int64(LocalDate(year: 9999, month: 6, day: 1)!.dayNumber))] + Self.farDays
            return first
        }

        static let goodRules = [
            #"{"streak":{}}"#, #"{"dailyBlocks":{"max":0,"target":{"allVice":{}}}}"#,
            #"{"dailyBlocks":{"max":96,"target":{"app":{"_0":"youtube"}}}}"#,
            #"{"quietHours":{"from":{"minutes":1320},"target":{"allVice":{}},"until":{"minutes":420}}}"#,
        ]
        static let badRules = [
            #"{"dailyBlocks":{"max":-1,"target":{"allVice":{}}}}"#,
            #"{"dailyBlocks":{"max":97,"target":{"allVice":{}}}}"#,
            #"{"dailyBlocks":{"max":9223372036854775807,"target":{"allVice":{}}}}"#,
            #"{"dailyBlocks":{"max":"#, "", "null", #"{"future":{}}"#,
            #"{"quietHours":{"from":{"minutes":1500},"target":{"allVice":{}},"until":{"minutes":60}}}"#,
            #"{"quietHours":{"from":{"minutes":-60},"target":{"allVice":{}},"until":{"minutes":60}}}"#,
            #"{"quietHours":{"from":{"minutes":600},"target":{"allVice":{}},"until":{"minutes":600}}}"#,
            #"{"dailyBlocks":{"max":1,"target":{"app":{"_0":"\u001b[2J"}}}}"#,
            #"{"dailyBlocks":{"max":1,"target":{"app":{"_0":""}}}}"#,
            #"{"dailyBlocks":{"max":1,"target":{"app":{"_0":"\#(String(repeating: "y", count: 3000))"}}}}"#,
        ]

        func row(_ table: HostileRow.Table, using rng: inout SeededGenerator) -> HostileRow {
            if table == .weekResult { return weekResult(using: &rng) }
            let specs = specs(table)
            var values = specs.map { $0.right(&rng) }
            let mutable = specs.indices.filter { !specs[$0].wrong.isEmpty }
            var isRight = true
            var isRead = true
            if Bool.random(using: &rng) {
                for position in mutable.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng)) {
                    values[position] = specs[position].wrong.randomElement(using: &rng)!
                    isRight = false
                    if specs[position].hides { isRead = false }
                }
            }
            let columns = zip(specs, values).map { HostileRow.Column(name: $0.name, value: $1) }
            let id = table == .challenge ? "hcq\(index)" : userID
            return HostileRow(table: table, columns: columns, isRight: isRight, isRead: isRead, id: id)
        }

        /// A week result: its counts make a week, its coins what those days can bring (0 while
        /// pending); wrong, one of them is not.
        func weekResult(using rng: inout SeededGenerator) -> HostileRow {
            let pending = Bool.random(using: &rng)
            let waiting: Int64 = pending ? 1 : 0  // A pending week misses a day at least.
            let kept = Int64.random(in: 0...(7 - waiting), using: &rng)
            let over = Int64.random(in: 0...(7 - waiting - kept), using: &rng)
            let missing = Int64.random(in: waiting...(7 - kept - over), using: &rng)
            let coins = pending ? 0 : Int64.random(in: -((over + missing) * 1000)...(kept * 1000), using: &rng)
            var values: [String: HostileValue] = [
                "user_id": .text(userID), "week": .integer(Int64.random(in: days, using: &rng)),
                "status": .text(pending ? "pending" : "settled"), "kept_days": .integer(kept),
                "over_days": .integer(over), "missing_days": .integer(missing), "coins": .integer(coins),
                "rule": .text(Bool.random(using: &rng) ? "pending" : "worst-case"), "kept_day_coins": .integer(5),
                "over_day_coins": .integer(10), "settled_at": pending ? .null : .integer(1_795_000_000_000),
            ]
            var isRight = true
            var isRead = true
            if Bool.random(using: &rng) {
                isRight = false
                switch Int.random(in: 0...6, using: &rng) {
                case 0: values["user_id"] = .text(badUserIDs().randomElement(using: &rng)!)
                case 1:
                    values["week"] = Self.farDays.randomElement(using: &rng)!
                    isRead = false
                case 2: values["status"] = .text("lost")
                case 3: values["rule"] = .text("never")
                case 4: values["kept_days"] = .integer([8, -1, .max, .min].randomElement(using: &rng)!)
                case 5: values["over_days"] = .integer(7 - kept + 1)
                default: values["coins"] = .integer([.max, .min, kept * 1000 + 1].randomElement(using: &rng)!)
                }
            }
            let names = [
                "user_id", "week", "status", "kept_days", "over_days", "missing_days", "coins", "rule",
                "kept_day_coins", "over_day_coins", "settled_at",
            ]
            return HostileRow(
                table: .weekResult, columns: names.map { HostileRow.Column(name: $0, value: values[$0]!) },
                isRight: isRight, isRead: isRead, id: userID)
        }

        /// A right member for a row of another table that names `user`.
        func companion(_ user: String) -> HostileRow {
            let columns: [(String, HostileValue)] = [
                ("user_id", .text(user)), ("display_name", .text("m\(index)")), ("name_key", .text("nkc\(index)")),
                ("blocks_today", .integer(1)), ("day", .integer(Int64(today.dayNumber))), ("streak", .integer(0)),
                ("last_active", .null), ("last_updated", .integer(1_795_000_000_000)), ("version", .integer(1)),
                ("joined_at", .integer(1_795_000_000_000)),
            ]
            return HostileRow(
                table: .member, columns: columns.map { HostileRow.Column(name: $0.0, value: $0.1) }, isRight: true,
                isRead: true, id: user)
        }
    }
}
