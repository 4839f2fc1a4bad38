import ArgumentParser
import Foundation
import ScreenMatesHome

/// Runs a command body, turning an `AppError` into a message on standard error and its exit
/// status, and a status other than 0 into that exit status. It runs on the caller's actor (the
/// dashboard's, the main actor, stays on the main thread).
func reporting(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws(AppError) -> Int32
) async throws {
    let status: Int32
    do {
        status = try await body()
    } catch {
        printError(error.message)
        throw ExitCode(error.exitStatus)
    }
    if status != 0 { throw ExitCode(status) }
}

/// Writes `message` on standard error as a line of the program's.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("screenmates: \(message)\n".utf8))
}

/// Names, on standard error, the rows a group store held that could not be right and were left out
/// of what a command shows (as `group show` names them).
func printLeftOut(_ rows: [some CustomStringConvertible]) {
    guard !rows.isEmpty else { return }
    printError("left out, as they cannot be right:\n" + rows.map { "  \($0)" }.joined(separator: "\n"))
}

/// `value` as the `--json` options print it: indented, keys sorted, slashes as they are.
func jsonText(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
}
