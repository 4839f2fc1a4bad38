import ArgumentParser
import ScreenMatesMonitorRuntime

/// `--url` and `--host`: which ActivityWatch server, and whose buckets on it, for `monitor` and
/// `import activitywatch`.
struct ActivityWatchServerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The ActivityWatch server (default http://127.0.0.1:5600; its testing port is 5666).",
            valueName: "url"))
    var url: String?

    @Option(
        help: ArgumentHelp(
            "Read the ActivityWatch buckets of this host (default: this machine, or the only one there).",
            valueName: "name"))
    var host: String?

    /// The options given, by name, for messages.
    var given: [String] { [url.map { _ in "--url" }, host.map { _ in "--host" }].compactMap { $0 } }

    func options(quiet: Bool = false) -> ActivityWatchOptions {
        ActivityWatchOptions(url: url, host: host, quiet: quiet)
    }
}
