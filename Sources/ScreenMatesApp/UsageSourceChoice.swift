import Foundation
import ScreenMatesActivityWatch

/// Where `screenmates monitor` takes usage from. Real sources follow what the user does on the
/// real clock; the simulated one makes usage up, for demos and tests.
public enum UsageSourceKind: String, CaseIterable, Sendable {
    case activitywatch
    case simulated

    /// Decides the source from `--source` and the other options given: the simulation's own
    /// options imply it, `--url`/`--host` imply ActivityWatch, and with neither the monitor uses
    /// ActivityWatch when it answers — otherwise it says what it tried and how to choose.
    public static func resolve(
        explicit: UsageSourceKind?, simulationOptions: [String], activityWatchOptions: [String],
        activityWatch: ActivityWatchOptions
    ) async throws(AppError) -> (UsageSourceKind, announce: String?) {
        switch explicit {
        case .simulated:
            if let option = activityWatchOptions.first {
                throw .usage("\(option) is for --source activitywatch; the simulated monitor takes none.")
            }
            return (.simulated, nil)
        case .activitywatch:
            if let option = simulationOptions.first {
                throw .usage(
                    "\(option) belongs to the simulated monitor; --source activitywatch follows real usage on the real clock."
                )
            }
            return (.activitywatch, nil)
        case nil:
            if !simulationOptions.isEmpty, let option = activityWatchOptions.first {
                throw .usage(
                    "\(option) is for ActivityWatch and \(simulationOptions[0]) for the simulated monitor: "
                        + "choose one with --source activitywatch or --source simulated.")
            }
            if !simulationOptions.isEmpty { return (.simulated, nil) }
            if !activityWatchOptions.isEmpty { return (.activitywatch, nil) }
            let client = try activityWatch.client(timeout: .seconds(3))
            do {
                _ = try await client.info()
                return (
                    .activitywatch,
                    "ActivityWatch answers at \(client.baseURL): following it (--source simulated for the simulated monitor)."
                )
            } catch {
                let reason: String
                switch error {
                case .unreachable(_, let detail): reason = detail
                default: reason = "it did not answer as ActivityWatch does"
                }
                throw .usage(
                    "No usage source given, and ActivityWatch does not answer at \(client.baseURL) (\(reason)). "
                        + "Start ActivityWatch, or choose a source: --source activitywatch [--url URL] to follow it, "
                        + "--source simulated (or --seed, --rate, --scenario, --count) for the simulated monitor.")
            }
        }
    }
}
