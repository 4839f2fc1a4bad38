import Foundation
import ScreenMatesActivityWatch
import ScreenMatesHome
import ScreenMatesSources

/// Where `screenmates monitor` takes usage from. Real sources follow what the user does on the
/// real clock; the simulated one makes usage up, for demos and tests.
public enum UsageSourceKind: String, CaseIterable, Sendable {
    case auto
    case activitywatch
    case x11
    case sway
    case hyprland
    case gnome
    case kde
    case terminal
    case simulated

    /// The names `--source` takes, for messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// Decides the source from `--source` and the other options given: the simulation's own
    /// options imply it, `--url`/`--host` imply ActivityWatch, and with neither (or `auto`) the
    /// monitor takes the first that answers of ActivityWatch, the desktop the session runs
    /// (`SessionSources`: sway, Hyprland, X11), and the terminal — otherwise it says what it
    /// tried and how to choose. `auto` without ActivityWatch comes back as `.auto`: an
    /// `AutoProbe` follows the desktop or the terminal and chooses again while it runs.
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
        case .activitywatch, .x11, .sway, .hyprland, .gnome, .kde, .terminal:
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
        let session = SessionSources(
            environment: environment, idleTimeout: 180, gnomeExtensions: gnomeExtensions(environment),
            kwinScript: kwinScript(environment))
        if let (_, probe) = session.firstAnswering() {
            return (
                .auto,
                "ActivityWatch does not answer; following \(probe.following) (--source \(probe.sourceName)); "
                    + "chosen again if it goes away."
            )
        }
        tried += session.reasons()
        if await TerminalProbe.inUse() {
            let again = session.desktops.isEmpty ? "" : "; a desktop that answers later is followed instead"
            return (
                .auto,
                "ActivityWatch does not answer and no desktop does; following the terminal (--source terminal)\(again)."
            )
        }
        tried.append("no terminal is in use (no tmux client attached, no terminal of yours open)")
        throw .usage(
            "No usage source given, and none answers: \(tried.joined(separator: "; ")). "
                + "Start ActivityWatch, or choose a source: --source activitywatch [--url URL] to follow it, "
                + "--source x11, sway, hyprland, gnome, kde or terminal to follow this machine, "
                + "--source simulated (or --seed, --rate, --scenario, --count) for the simulated monitor.")
    }
}

extension UsageSourceKind {
    /// Where ScreenMates' GNOME Shell extension is installed with the other files.
    static func gnomeExtensions(_ environment: [String: String]) -> String? {
        (try? AssetCatalog.locate(environment: environment)).map { $0.directory + "/gnome-shell-extension" }
    }

    /// The KWin script a KDE Plasma source loads, where it is installed with the other files.
    static func kwinScript(_ environment: [String: String]) -> String? {
        (try? AssetCatalog.locate(environment: environment)).map { $0.directory + "/kwin/screenmates-focus.js" }
    }

    /// What samples the focus for a source that is followed by sampling — the terminal, X11,
    /// sway, Hyprland, and `auto` once ActivityWatch did not answer (the desktop or the terminal,
    /// chosen again as it runs) — made when the follower starts; nil for ActivityWatch and the
    /// simulation, which are not sampled.
    public func probe(idleTimeout: TimeInterval, environment: [String: String]) -> SampledFollower.ProbeMaker? {
        switch self {
        case .activitywatch, .simulated: nil
        case .terminal: { () throws(FocusProbeError) -> any FocusProbe in TerminalProbe() }
        case .x11: { () throws(FocusProbeError) -> any FocusProbe in try X11Probe() }
        case .sway:
            { () throws(FocusProbeError) -> any FocusProbe in
                try SwayProbe(idleTimeout: idleTimeout, environment: environment)
            }
        case .hyprland:
            { () throws(FocusProbeError) -> any FocusProbe in
                try HyprlandProbe(idleTimeout: idleTimeout, environment: environment)
            }
        case .gnome:
            { () throws(FocusProbeError) -> any FocusProbe in
                try GnomeProbe(environment: environment, extensionDirectory: Self.gnomeExtensions(environment))
            }
        case .kde:
            { () throws(FocusProbeError) -> any FocusProbe in
                guard let script = Self.kwinScript(environment) else {
                    throw FocusProbeError(
                        "ScreenMates' KWin script (assets/kwin) is not installed with its other files.")
                }
                return try KWinProbe(script: script, idleTimeout: idleTimeout, environment: environment)
            }
        case .auto:
            {
                [
                    session = SessionSources(
                        environment: environment, idleTimeout: idleTimeout,
                        gnomeExtensions: Self.gnomeExtensions(environment), kwinScript: Self.kwinScript(environment))
                ] ()
                    throws(FocusProbeError) -> any FocusProbe in
                AutoProbe(session: session) { TerminalProbe() }
            }
        }
    }
}
