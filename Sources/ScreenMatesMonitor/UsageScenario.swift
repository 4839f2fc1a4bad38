import Foundation
import ScreenMatesCore

/// What a scenario file holds: a usage profile (odds per hour, `hours`) or a scripted day
/// (`steps`).
public enum UsageScenario: Hashable, Sendable {
    case profile(UsageProfile)
    case script(UsageScript)

    public var name: String {
        switch self {
        case .profile(let profile): profile.name
        case .script(let script): script.name
        }
    }

    /// Reads a scenario file; the error names the file and what is wrong.
    public static func parse(_ data: Data, source: String) throws(UsageScenarioError) -> UsageScenario {
        struct Shape: Decodable {
            var hours: [UsageProfile.Hour]?
            var steps: [UsageScript.Step]?
        }
        do {
            let shape = try JSONDecoder().decode(Shape.self, from: data)
            if shape.steps != nil {
                return .script(try JSONDecoder().decode(UsageScript.self, from: data).validated())
            }
            if shape.hours != nil {
                do {
                    return .profile(try JSONDecoder().decode(UsageProfile.self, from: data).validated())
                } catch let error as UsageProfileError {
                    throw UsageScenarioError.badProfile(error.message)
                }
            }
            throw UsageScenarioError.unknownShape(source: source)
        } catch let error as UsageScenarioError {
            throw error
        } catch {
            throw .malformed(source: source, detail: String(describing: error))
        }
    }

    /// The event source that plays this scenario.
    public func source(
        seed: UInt64, apps: [TrackedApp], blockMinutes: Int, calendar: DayCalendar, start: Date
    ) -> any UsageSource {
        switch self {
        case .profile(let profile):
            UsageSimulator(
                seed: seed, apps: apps, profile: profile, blockMinutes: blockMinutes, calendar: calendar, start: start)
        case .script(let script):
            ScriptedDay(script: script, seed: seed, blockMinutes: blockMinutes, calendar: calendar, start: start)
        }
    }
}

/// A scenario file that cannot be used, with where and why.
public enum UsageScenarioError: Error, Hashable, Sendable {
    case malformed(source: String, detail: String)
    case unknownShape(source: String)
    case emptyScript(name: String)
    case badStep(name: String, step: Int, detail: String)
    case badProfile(String)

    public var message: String {
        switch self {
        case .malformed(let source, let detail): "\(source) is not a valid scenario: \(detail)"
        case .unknownShape(let source):
            "\(source) is neither a usage profile (with \"hours\") nor a script (with \"steps\")."
        case .emptyScript(let name): "Scenario \"\(name)\" has no steps."
        case .badStep(let name, let step, let detail): "Scenario \"\(name)\", step \(step): \(detail)."
        case .badProfile(let message): message
        }
    }
}
