import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesMonitor
import ScreenMatesSources
import ScreenMatesStore
import ScreenMatesWatch

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

/// `screenmates monitor --source terminal|x11|sway|hyprland|auto`: samples what has the focus
/// about once a second and writes the user's blocks into the local store, exactly once.
///
/// The active spans live in memory; every sample derives the open days afresh from them, so a
/// block's id is the same however often it is derived. A restarted monitor has lost the spans
/// of the run before, so it first counts the blocks that run wrote (their ids are known) and
/// numbers its own after them: nothing counts twice, and at most the unfinished part of a
/// block per app is lost; a source chosen again while it runs (`auto`) is counted the same way.
/// Blocks are derived only when one may be due (`SampledWriteSchedule`). On a stop signal it
/// samples once more and writes every block that is finished before it exits.
public final class SampledFollower: Sendable {
    public typealias ProbeMaker = @Sendable () throws(FocusProbeError) -> any FocusProbe

    private let store: LocalStore
    private let catalogue: AppCatalogue
    private let options: SamplingOptions
    private let logger: Logger
    private let makeProbe: ProbeMaker
    private let host: String
    private let timeZone: TimeZoneSource

    /// `home` must exist and have a profile; its days are counted in `timeZone`.
    public init(
        home: HomeDirectory, assets: AssetCatalog, options: SamplingOptions, timeZone: TimeZoneSource, logger: Logger,
        probe: @escaping ProbeMaker
    ) throws(AppError) {
        let opened = try OpenedHome.forRecording(home: home, assets: assets, timeZone: timeZone, command: "the monitor")
        self.timeZone = timeZone
        store = opened.store
        catalogue = opened.catalogue
        self.options = options
        self.logger = logger
        makeProbe = probe
        host = ActivityWatchOptions.localHost
    }

    /// Runs until `stop` is requested (which wakes it between samples), or the source ends
    /// (exit status 1); returns the exit status. The loop runs on a thread of its own (a
    /// `ThreadExecutor`), which sleeps in the kernel between samples: nothing else runs there but
    /// the loop and the tasks it awaits (a tmux query).
    public func run(stop: StopRequest) async -> Int32 {
        await ThreadExecutor.run(name: "sampling") { thread in await follow(on: thread, stop: stop) }
    }

    /// Sleeps for `duration`, or until `stop` is requested: in `poll` on the stop's pipe when
    /// called on the sampling thread, else with `Task.sleep` (cancelled by the stop). Waking once
    /// a second with `Task.sleep` on Swift's shared pool costs about 210 µs of CPU a wake-up (a
    /// timer and hand-offs between the pool's threads); on a thread of its own that sleeps in the
    /// kernel, about 45 µs (both measured in a release build on this kind of machine): the
    /// difference is most of what following costs.
    private static func sleep(for duration: Duration, on thread: ThreadExecutor, until stop: StopRequest) async {
        guard thread.isCurrent else {
            await stop.cancelling { try? await Task.sleep(for: duration) }
            return
        }
        _ = stop.sleep(for: duration)
    }

    private func follow(on thread: ThreadExecutor, stop: StopRequest) async -> Int32 {
        var probe: any FocusProbe
        do {
            probe = try makeProbe()
        } catch {
            say(error.message)
            return 1
        }
        var source = Followed(probe.sourceName, options: options)
        var writer = OpenDaysWriter(
            store: store, timeZone: timeZone, logger: logger, quiet: options.quiet, seenInterval: 60)
        var problem: String?
        var following = ""
        var settings: (value: UserSettings, readAt: Date)?
        var status: Int32?
        let tasks = BackgroundTasks()
        var watch = ChallengeWatch(store: store, logger: logger, tasks: tasks)
        while status == nil {
            let stopping = stop.exitStatus != nil
            let now = Date()
            do {
                let sample = try await probe.sample(wallClock: now)
                for notice in probe.takeNotices() {
                    logger.notice("\(notice)")
                    say(notice)
                }
                if probe.sourceName != source.name {
                    // Another source (auto chose again): its blocks are numbered apart, from what
                    // the store holds of it; this one's spans are not carried over.
                    source = Followed(probe.sourceName, options: options)
                    writer = OpenDaysWriter(
                        store: store, timeZone: timeZone, logger: logger, quiet: options.quiet, seenInterval: 60)
                }
                source.timeline.add(sample, at: now)
                if probe.following != following {
                    following = probe.following
                    // Said even when quiet: what is followed, and without which signal (idle).
                    logger.info("following \(following)")
                    say("following \(following).")
                }
                // The settings (apps, block length) are read again every half minute, and the
                // deriver (its matcher indexes the catalogue) made again only when they changed.
                if settings.map({ now < $0.readAt || now.timeIntervalSince($0.readAt) >= 30 }) ?? true,
                    let read = try store.settings()
                {
                    if read != settings?.value { source.deriver = nil }
                    settings = (read, now)
                }
                if let settings = settings?.value {
                    try source.write(
                        at: now, force: stopping, settings: settings, catalogue: catalogue, host: host,
                        timeZone: timeZone.current(), writer: &writer)
                    if !stopping, let deriver = source.deriver {
                        for line in await watch.look(
                            at: sample, matcher: deriver.matcher, settings: settings, calendar: deriver.calendar,
                            now: now, probe: &probe)
                        {
                            say(line)
                        }
                    }
                }
                if problem != nil {
                    say("\(source.name) can be read and written again.")
                    problem = nil
                }
            } catch {
                let probeError = error as? FocusProbeError
                let message =
                    probeError?.message ?? (error as? StoreError).map { $0.message + " Retrying; nothing is lost." }
                    ?? String(describing: error)
                if message != problem {
                    problem = message
                    logger.warning("\(source.name): \(message)")
                    say(message)
                }
                // A source that ended cannot come back in this process; a service unit starts
                // the monitor again (auto chooses again itself, and so never ends here).
                if probeError?.sourceEnded == true { status = 1 }
            }
            if stopping { break }
            // One wake-up a sample keeps following cheap; a stop ends the sleep at once, for a
            // last sample.
            if status == nil { await Self.sleep(for: options.interval, on: thread, until: stop) }
        }
        await tasks.finish()
        logger.info("\(source.name) follower stopped")
        return stop.exitStatus ?? status ?? 0
    }

    /// What is kept of the source followed: its spans, its deriver, when to derive again.
    private struct Followed {
        let name: String
        var timeline: SampledTimeline
        var deriver: BlockDeriver?
        var schedule = SampledWriteSchedule()
        /// The blocks a previous run wrote today, per app (read once, at the first write).
        var earlier: [LocalDate: [String: Int]]?

        init(_ name: String, options: SamplingOptions) {
            self.name = name
            timeline = SampledTimeline(idleThreshold: options.idleThreshold, maxGap: options.maxGap)
        }

        /// Derives and writes the open days when the schedule says a block may be due (or
        /// `force`: the last sample before the monitor stops).
        mutating func write(
            at now: Date, force: Bool, settings: UserSettings, catalogue: AppCatalogue,
            host: String, timeZone: TimeZone, writer: inout OpenDaysWriter
        ) throws {
            if deriver == nil {
                deriver = blockDeriver(
                    settings: settings, catalogue: catalogue, source: name, host: host, timeZone: timeZone)
                schedule.reset()
            }
            guard let deriver, force || schedule.isDue(now, newest: timeline.focus.last) else { return }
            let days = OpenDaysWriter.openDays(deriver, now: now)
            timeline.drop(endingBefore: deriver.calendar.start(of: days[0]))
            do {
                if earlier == nil { earlier = try writer.blocksInStore(deriver, now: now) }
                try writer.write(timeline.timeline, deriver: deriver, now: now, earlier: earlier ?? [:])
            } catch {
                // Not written: tried again at the next sample.
                schedule.reset()
                throw error
            }
            schedule.derived(
                now, newest: timeline.focus.last, today: deriver.derive(timeline.timeline, day: days[1], until: now),
                blockSeconds: deriver.blockSeconds, nextDay: deriver.calendar.start(of: days[1].adding(days: 1)))
        }
    }

    private func say(_ line: String) {
        FileHandle.standardError.write(Data("screenmates monitor: \(line)\n".utf8))
    }
}
