import Foundation
import ScreenMatesUI

/// The dashboard's key table as reference text: every screen's bindings, in the order the help
/// screen lists them. The manual page's KEYS section is written from it
/// (`screenmates dashboard --experimental-dump-keys`), so the page, the footer and the help
/// screen are one table and cannot disagree.
public enum KeyReference {
    /// One binding as the page lists it: its keys (`tab`, `→`, `l`) and what it does.
    struct Entry: Encodable {
        var keys: [String]
        var summary: String
    }

    /// One screen's bindings.
    struct Screen: Encodable {
        var screen: String
        var bindings: [Entry]
    }

    /// JSON: an array of screens, each with its bindings. The "terminal too small" screen, whose
    /// one key is quit, is left out; a line for the help only (keys bound above it) keeps its
    /// label as its key.
    public static func json(table: KeyTable = .standard) -> String {
        let screens = ScreenKind.allCases.filter { $0 != .tooSmall }.map { kind in
            Screen(
                screen: kind.rawValue,
                bindings: table.all(for: kind).map { binding in
                    Entry(
                        keys: binding.keys.isEmpty ? [binding.label] : binding.keys.map(\.label),
                        summary: binding.summary)
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(screens)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
