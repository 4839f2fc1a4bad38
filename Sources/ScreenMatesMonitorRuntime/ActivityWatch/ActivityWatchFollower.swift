import Foundation
import Logging
import ScreenMatesActivityWatch
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesStore

/// `screenmates monitor --source activitywatch`: follows a running ActivityWatch server and
/// writes the user's blocks into the local store, exactly once.
///
/// Every poll derives the open days (yesterday and today) afresh from what ActivityWatch holds
/// and writes the blocks not written yet; a block's id is a function of the day, the app and its
/// number, so nothing read twice counts twice, in this process or after a restart. Problems —
/// ActivityWatch gone, a bucket missing, the store not writable — are said once on standard
/// error as they start and end; it keeps trying, and catches up once they are gone.
public final class ActivityWatchFollower: Sendable {
    private let store: LocalStore
    private let catalogue: AppCatalogue
    private let options: ActivityWatchOptions
    private let timeZone: TimeZoneSource
    private let logger: Logger

    /// `home` must exist and have a profile; its days are counted in `timeZone`.
    public init(
        home: HomeDirectory, assets: AssetCatalog, options: ActivityWatchOptions, timeZone: TimeZoneSource,
        logger: Logger
    ) throws(AppError) {
        let opened = try OpenedHome.forRecording(home: home, assets: assets, timeZone: timeZone, command: "the monitor")
        self.timeZone = timeZone
        store = opened.store
        catalogue = opened.catalogue
        self.options = options
        self.logger = logger
        _ = try options.client()
    }

    /// Runs until `stop` is requested (which wakes it from its wait between polls); returns the
    /// exit status.
    public func run(stop: StopRequest) async -> Int32 {
        await stop.cancelling { [self] in await follow() }
        logger.info("activitywatch follower stopped")
        return stop.exitStatus ?? 0
    }

    private func follow() async {
        guard let client = try? options.client() else { return }
        var state = FollowState(
            writer: OpenDaysWriter(store: store, timeZone: timeZone, logger: logger, quiet: options.quiet))
        logger.info("following activitywatch", metadata: ["url": "\(client.baseURL)"])
        while !Task.isCancelled {
            var wait = options.pollInterval
            do {
                try await poll(client, &state)
                if state.problem != nil {
                    say("ActivityWatch can be read again; caught up.")
                    state.problem = nil
                }
                state.failures = 0
            } catch {
                state.failures += 1
                if let error = error as? ActivityWatchError {
                    // Read the buckets again: a server restarted numbers its events anew, a
                    // bucket may have been renamed or created meanwhile.
                    state.reader = nil
                    report(error.message, &state)
                } else {
                    let message = (error as? StoreError)?.message ?? String(describing: error)
                    report("\(message) Retrying; nothing is lost.", &state)
                }
                wait = min(.seconds(5), .milliseconds(250) * (1 << min(state.failures, 5)))
            }
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    private struct FollowState {
        var reader: (any ActivitySource)?
        var writer: OpenDaysWriter
        var problem: String?
        var failures = 0
    }

    private func poll(_ client: ActivityWatchClient, _ state: inout FollowState) async throws {
        if state.reader == nil {
            let selection = try await options.select(with: client)
            state.reader = ActivityWatchReader(client: client, selection: selection)
            var line =
                "following ActivityWatch at \(client.baseURL): host \(SafeText.displayable(selection.host)), "
                + "windows from \(SafeText.displayable(selection.window.id))"
            if let afk = selection.afk {
                line += ", away time from \(SafeText.displayable(afk.id))."
            } else {
                line += "; there is no AFK bucket, so focused time counts whether or not you are there."
            }
            say(line)
        }
        guard var reader = state.reader, let settings = try store.settings() else { return }
        let now = Date()
        let deriver = blockDeriver(
            settings: settings, catalogue: catalogue, source: reader.name, host: reader.host,
            timeZone: timeZone.current())
        let from = deriver.calendar.start(of: OpenDaysWriter.openDays(deriver, now: now)[0])
        guard from < now else { return }
        let timeline = try await reader.timeline(of: from..<now, now: now)
        state.reader = reader
        try state.writer.write(timeline, deriver: deriver, now: now)
    }

    /// Says a problem once, until it changes or goes away.
    private func report(_ message: String, _ state: inout FollowState) {
        guard message != state.problem else { return }
        state.problem = message
        logger.warning("activitywatch: \(message)")
        say(message)
    }

    private func say(_ line: String) {
        FileHandle.standardError.write(Data("screenmates monitor: \(line)\n".utf8))
    }
}
