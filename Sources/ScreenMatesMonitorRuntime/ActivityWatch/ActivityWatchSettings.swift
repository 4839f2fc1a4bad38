import Foundation
import Glibc
import ScreenMatesActivityWatch
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor

/// Where ActivityWatch is and which machine's buckets to read: `--url` (else
/// `SCREENMATES_ACTIVITYWATCH_URL`, else ActivityWatch's own port on this machine), `--host`.
public struct ActivityWatchOptions: Sendable {
    public var url: String
    public var host: String?
    /// How often the follower reads ActivityWatch again.
    public var pollInterval: Duration
    public var quiet: Bool

    public init(url: String? = nil, host: String? = nil, pollInterval: Duration = .seconds(2), quiet: Bool = false) {
        let fromEnvironment = ProcessInfo.processInfo.environment["SCREENMATES_ACTIVITYWATCH_URL"].flatMap {
            $0.isEmpty ? nil : $0
        }
        self.url = url ?? fromEnvironment ?? ActivityWatchClient.defaultURL
        self.host = host
        self.pollInterval = pollInterval
        self.quiet = quiet
    }

    /// The name blocks and buckets are keyed by.
    static let sourceName = "activitywatch"

    func client(timeout: Duration = .seconds(10)) throws(AppError) -> ActivityWatchClient {
        do {
            return try ActivityWatchClient(url: url, timeout: timeout)
        } catch {
            throw .usage(error.message)
        }
    }

    /// This machine's name, as ActivityWatch's watchers record it (`gethostname`).
    static var localHost: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return ProcessInfo.processInfo.hostName }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Finds the buckets to read, turning what is wrong into a message.
    func select(with client: ActivityWatchClient) async throws(ActivityWatchError) -> ActivityWatchSelection {
        try ActivityWatchSelection.choose(
            from: try await client.buckets(), host: host, localHost: Self.localHost, url: client.baseURL)
    }
}

extension AppError {
    init(_ error: ActivityWatchError) {
        self.init(error.message, exitStatus: error.isUsageError ? 64 : 1)
    }
}

/// The deriver for the user's current settings.
func blockDeriver(
    settings: UserSettings, catalogue: AppCatalogue, source: String = ActivityWatchOptions.sourceName, host: String,
    timeZone: TimeZone
) -> BlockDeriver {
    BlockDeriver(
        source: source, host: host, blockSeconds: settings.rules.blockSeconds,
        calendar: DayCalendar(timeZone: timeZone, dayStartHour: settings.dayStartHour),
        matcher: AppMatcher(apps: settings.apps, rules: catalogue.desktopRules))
}
