import Foundation
import ScreenMatesActivityWatch
import ScreenMatesSources

/// Where `screenmates monitor` takes usage from. Real sources follow what the user does on the
/// real clock; the simulated one makes usage up, for demos and tests.
public enum UsageSourceKind: String, CaseIterable, Sendable {
    case auto
    case activitywatch
    case x11
    case terminal
    case simulated

    /// The names `--source` takes, for messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// Decides the source from `--source` and the other options given: the simulation's own
    /// options imply it, `--url`/`--host` imply ActivityWatch, and with neither (or `auto`) the
    /// monitor takes the first that answers of ActivityWatch, the desktop the session runs
    /// (X11), and the terminal — otherwise it says what it tried and how to choose.
    public static func resolve(
        explicit: UsageSourceKind?, simulationOptions: [String], activityWatchOptions: [String],
        activityWatch: ActivityWatchOptions, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(AppError) -> (UsageSourceKind, announce: String?) {
        switch explicit {
        case .simulated:
            if let option = activityWatchOptions.first {
                throw .usage("\(option) is for --source activitywatch; the simulated monitor takes none.")
            }
            return (.simulated, nil)
        case .activitywatch, .x11, .terminal:
            let kind = explicit ?? .activitywatch
            if let option = simulationOptions.first {
                throw .usage(
                    "\(option) belongs to the simulated monitor; --source \(kind.rawValue) follows real usage on the real clock."
                )
            }
            if kind != .activitywatch, let option = activityWatchOptions.first {
                throw .usage("\(option) is for --source activitywatch; --source \(kind.rawValue) takes none.")
            }
            return (kind, nil)
        case .auto, nil:
            if !simulationOptions.isEmpty, let option = activityWatchOptions.first {
                throw .usage(
                    "\(option) is for ActivityWatch and \(simulationOptions[0]) for the simulated monitor: "
                        + "choose one with --source activitywatch or --source simulated.")
            }
            if !simulationOptions.isEmpty {
                if explicit == .auto {
                    throw .usage("\(simulationOptions[0]) belongs to the simulated monitor: use --source simulated.")
                }
                return (.simulated, nil)
            }
            if !activityWatchOptions.isEmpty { return (.activitywatch, nil) }
            return try await choose(activityWatch: activityWatch, environment: environment)
        }
    }

    /// `auto`: ActivityWatch, then the desktop, then the terminal.
    private static func choose(activityWatch: ActivityWatchOptions, environment: [String: String])
        async throws(AppError) -> (UsageSourceKind, announce: String?)
    {
        let client = try activityWatch.client(timeout: .seconds(3))
        var tried: [String] = []
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
            tried.append("ActivityWatch does not answer at \(client.baseURL) (\(reason))")
        }
        let wayland = ["SWAYSOCK", "HYPRLAND_INSTANCE_SIGNATURE", "WAYLAND_DISPLAY"].first {
            !(environment[$0] ?? "").isEmpty
        }
        if let wayland {
            // X11 there sees only XWayland's windows: following it would miss the rest.
            tried.append("this is a Wayland session (\(wayland) is set), whose windows ScreenMates cannot read yet")
        } else if let display = environment["DISPLAY"], !display.isEmpty {
            do {
                _ = try X11Probe(display: display)
                return (
                    .x11,
                    "ActivityWatch does not answer; following the focused window on X11 display \(display) (--source x11)."
                )
            } catch {
                tried.append(error.message)
            }
        } else {
            tried.append("DISPLAY is not set (no X11 desktop)")
        }
        if TerminalProbe.inUse() {
            return (
                .terminal,
                "ActivityWatch does not answer and there is no X11 desktop; following the terminal (--source terminal)."
            )
        }
        tried.append("no terminal is in use (no tmux client attached, no terminal of yours open)")
        throw .usage(
            "No usage source given, and none answers: \(tried.joined(separator: "; ")). "
                + "Start ActivityWatch, or choose a source: --source activitywatch [--url URL] to follow it, "
                + "--source x11 or --source terminal to follow this machine, "
                + "--source simulated (or --seed, --rate, --scenario, --count) for the simulated monitor.")
    }
}
