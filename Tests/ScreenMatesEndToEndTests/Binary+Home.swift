import Foundation
import Testing

/// What the challenge and settlement tests ask of the binary, on one home at a time.
extension Binary.Home {
    /// Runs the binary on this home, expecting it to succeed; its standard output.
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await Binary.run(arguments + ["--home", path])
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// The object a command prints with `--json`.
    func json(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let text = try await succeed(arguments + ["--json"], sourceLocation: sourceLocation)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)",
            sourceLocation: sourceLocation)
    }
}

/// The name → state of a challenge's participants in `challenge show --json` or `status --json`.
func participantStates(_ challenge: [String: Any]?) -> [String: String] {
    let participants = challenge?["participants"] as? [[String: Any]] ?? []
    return Dictionary(
        uniqueKeysWithValues: participants.map { ($0["name"] as? String ?? "", $0["state"] as? String ?? "") })
}
