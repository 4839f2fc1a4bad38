import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import ScreenMatesStore

/// How a sampling source is followed.
public struct SamplingOptions: Sendable {
    /// How often the focus is sampled.
    public var interval: Duration
    /// Input older than this makes the user away (ActivityWatch's own default: 3 minutes).
    public var idleThreshold: TimeInterval
    /// A gap between two samples longer than this (the machine slept, the process was stopped)
    /// is nobody's usage.
    public var maxGap: TimeInterval
    public var quiet: Bool

    public init(
        interval: Duration = .seconds(1), idleThreshold: TimeInterval = 180, maxGap: TimeInterval = 10,
        quiet: Bool = false
    ) {
        self.interval = interval
        self.idleThreshold = idleThreshold
        self.maxGap = maxGap
        self.quiet = quiet
    }
}

/// `screenmates monitor --source terminal|x11`: samples what has the focus about once a second
/// and writes the user's blocks into the local store, exactly once.
///
/// The active spans live in memory; every sample derives the open days afresh from them, so a
/// block's id is the same however often it is derived. A restarted monitor has lost the spans
/// of the run before, so it first counts the blocks that run wrote (their ids are known) and
/// numbers its own after them: nothing counts twice, and at most the unfinished part of a
/// block per app is lost. On a stop signal it samples once more and writes every block that is
/// finished before it exits.
public final class SampledFollower: Sendable {
    public typealias ProbeMaker = @Sendable () throws(FocusProbeError) -> any FocusProbe

    private let store: LocalStore
    private let catalogue: AppCatalogue
    private let options: SamplingOptions
    private let logger: Logger
    private let makeProbe: ProbeMaker
    private let host: String

    /// `home` must exist and have a profile.
    public init(
        home: HomeDirectory, assets: AssetCatalog, options: SamplingOptions, logger: Logger,
        probe: @escaping ProbeMaker
    ) throws(AppError) {
        let opened = try OpenedHome.open(home: home, assets: assets, speed: nil, startAt: nil)
        guard opened.settings.displayName != nil else {
            throw AppError(
                "\(home.path) has no profile yet: run `screenmates setup --name NAME` (or `screenmates`) first, then the monitor."
            )
        }
        for problem in opened.configProblems {
            FileHandle.standardError.write(Data("screenmates: \(problem)\n".utf8))
        }
        store = opened.store
        catalogue = try assets.appCatalogue()
        self.options = options
        self.logger = logger
        makeProbe = probe
        host = ActivityWatchOptions.localHost
    }

    /// Runs until a signal asks it to stop; returns the exit status.
    public func run(stopRequested: @escaping @Sendable () -> Int32?) async -> Int32 {
        var probe: any FocusProbe
        do {
            probe = try makeProbe()
        } catch {
            say(error.message)
            return 1
        }
        var timeline = SampledTimeline(idleThreshold: options.idleThreshold, maxGap: options.maxGap)
        var writer = OpenDaysWriter(store: store, logger: logger, quiet: options.quiet, seenInterval: 60)
        var earlier: [LocalDate: [String: Int]]?
        var problem: String?
        var following = ""
        var deriver: (value: BlockDeriver, madeAt: Date)?
        logger.info("following \(probe.sourceName)")
        while true {
            let stopping = stopRequested() != nil
            let now = Date()
            do {
                let sample = try probe.sample(wallClock: now)
                timeline.add(sample, at: now)
                if probe.following != following {
                    following = probe.following
                    if !options.quiet { say("following \(following).") }
                }
                // The settings (apps, block length) are read again every half minute, and the
                // deriver (its matcher indexes the catalogue) made again only then.
                if deriver.map({ now < $0.madeAt || now.timeIntervalSince($0.madeAt) >= 30 }) ?? true,
                    let settings = try store.settings()
                {
                    deriver = (
                        blockDeriver(settings: settings, catalogue: catalogue, source: probe.sourceName, host: host),
                        now
                    )
                }
                if let deriver = deriver?.value {
                    if earlier == nil { earlier = try writer.blocksInStore(deriver, now: now) }
                    timeline.drop(
                        endingBefore: deriver.calendar.start(of: OpenDaysWriter.openDays(deriver, now: now)[0]))
                    try writer.write(timeline.timeline, deriver: deriver, now: now, earlier: earlier ?? [:])
                }
                if problem != nil {
                    say("\(probe.sourceName) can be read and written again.")
                    problem = nil
                }
            } catch {
                let message =
                    (error as? FocusProbeError)?.message ?? (error as? StoreError).map {
                        $0.message + " Retrying; nothing is lost."
                    }
                    ?? String(describing: error)
                if message != problem {
                    problem = message
                    logger.warning("\(probe.sourceName): \(message)")
                    say(message)
                }
            }
            if stopping { break }
            // A signal only sets a flag, seen at the next sample (within a second): one wake-up
            // a sample keeps following cheap.
            try? await Task.sleep(for: options.interval)
        }
        logger.info("\(probe.sourceName) follower stopped")
        return stopRequested() ?? 0
    }

    private func say(_ line: String) {
        FileHandle.standardError.write(Data("screenmates monitor: \(line)\n".utf8))
    }
}
