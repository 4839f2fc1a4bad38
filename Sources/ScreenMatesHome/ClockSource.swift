import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore

/// Chooses the app clock for a command.
///
/// `--speed` / `--start-at` make a simulated clock, which a long-running process publishes in
/// the local store; commands started without them on the same home (`status`, a monitor
/// beside the dashboard) follow a published clock while its process runs, so they agree with
/// the screen. Otherwise the system clock.
public enum ClockSource {
    public struct Choice: Sendable {
        public let clock: any AppClock
        /// The zone the clock's instants are counted into days in: the one the command was given.
        public let timeZone: TimeZoneSource
        /// True when this process published its clock (and should withdraw it on exit).
        public let published: Bool

        package init(clock: any AppClock, timeZone: TimeZoneSource, published: Bool) {
            self.clock = clock
            self.timeZone = timeZone
            self.published = published
        }
    }

    public static let speedRange = 0.001...1_000_000.0

    public static func choose(
        speed: Double?, startAt: Date?, store: LocalStore, publish: Bool, timeZone: TimeZoneSource
    ) throws(AppError) -> Choice {
        if let speed, !speedRange.contains(speed) {
            throw .usage("--speed must be between 0.001 and 1000000 (it is \(speed)).")
        }
        if speed != nil || startAt != nil {
            let realNow = Date()
            try refuseGoingBack(to: startAt ?? realNow, named: startAt != nil, in: store, zone: timeZone.current())
            let clock = SimulatedClock(startingAt: startAt ?? realNow, speed: speed ?? 1)
            if publish {
                do {
                    try writePublication(origin: clock.origin, realAnchor: realNow, speed: clock.speed, in: store)
                } catch {
                    throw AppError(error)
                }
            }
            return Choice(clock: AdjustableClock(clock), timeZone: timeZone, published: publish)
        }
        if let publication = try? store.publishedClock(), publication.pid != getpid(),
            isRunning(publication.pid, startedAt: publication.processStart)
        {
            let clock = SimulatedClock(startingAt: publication.appTime(atReal: Date()), speed: publication.speed)
            return Choice(clock: clock, timeZone: timeZone, published: false)
        }
        return Choice(clock: SystemClock(), timeZone: timeZone, published: false)
    }

    /// A simulated clock never starts before the data a home already holds: events it dated
    /// would fall into days already lived and archived, and notices already shown would be due
    /// again. Refused with the home, the instant its data reaches and the ways out.
    static func refuseGoingBack(to start: Date, named: Bool, in store: LocalStore, zone: TimeZone) throws(AppError) {
        let reach: Date?
        do {
            guard let settings = try store.settings() else { return }
            reach = try store.latestInstant(calendar: DayCalendar(timeZone: zone, dayStartHour: settings.dayStartHour))
        } catch {
            throw AppError(error)
        }
        guard let reach, start < reach else { return }
        let home = (store.path as NSString).deletingLastPathComponent
        let later = TimeFormat.localMinute(reach, timeZone: zone, roundingUp: true)
        let asked = TimeFormat.localMinute(start, timeZone: zone)
        throw .usage(
            "The data in \(home) already reaches \(later) (local time), so the clock cannot start at \(asked)\(named ? "" : " (now)"): "
                + "it would go back into days this home has lived. Start at \(later) or later (--start-at \(later)), "
                + "or give another --home to start afresh."
        )
    }

    /// The clock of `choice` if it may jump: only a simulated clock this process publishes. The
    /// system clock cannot (events would be dated ahead of the real time), and a followed clock
    /// belongs to the process that published it.
    public static func adjustable(_ choice: Choice) throws(AppError) -> AdjustableClock {
        guard let clock = choice.clock as? AdjustableClock, choice.published else {
            throw .usage(
                choice.clock is SystemClock
                    ? "The dashboard runs on the real clock, which cannot jump: events would be dated ahead of the real time. Start it with --speed or --start-at to simulate the end of the day."
                    : "This dashboard follows the simulated clock of another ScreenMates process, which alone can move it; start this one with --speed or --start-at to have a clock of its own."
            )
        }
        return clock
    }

    /// Holds a simulated clock this process publishes while the first-run screens wait for
    /// typing; `release` lets it run on from there.
    public static func hold(_ choice: Choice) {
        guard choice.published, let clock = choice.clock as? AdjustableClock else { return }
        clock.pause()
    }

    /// Lets a held clock run and publishes it again from the instant it was held at, so the
    /// commands that follow it agree with the screen. Nothing happens to a clock not held.
    public static func release(_ choice: Choice, store: LocalStore) {
        guard choice.published, let clock = choice.clock as? AdjustableClock, clock.isPaused else { return }
        let now = clock.resume()
        try? writePublication(origin: now, realAnchor: Date(), speed: clock.speed, in: store)
    }

    /// Moves `clock` forward to `instant` and publishes it again, so commands started from now
    /// on follow it; published first, so a publication that fails leaves the clock as it was.
    /// Returns the clock's time after the jump.
    public static func jump(_ clock: AdjustableClock, to instant: Date, store: LocalStore) throws(AppError) -> Date {
        let target = max(instant, clock.now())
        do {
            try writePublication(origin: target, realAnchor: Date(), speed: clock.speed, in: store)
        } catch {
            throw AppError(error)
        }
        return clock.jump(to: target)
    }

    private static func writePublication(origin: Date, realAnchor: Date, speed: Double, in store: LocalStore)
        throws(StoreError)
    {
        try store.publishClock(
            ClockPublication(
                origin: origin, realAnchor: realAnchor, speed: speed, pid: getpid(),
                processStart: processStart(getpid())))
    }

    /// Withdraws this process's publication.
    public static func withdraw(from store: LocalStore) {
        try? store.withdrawClock(pid: getpid())
    }

    /// Whether the process that published a clock still runs: the pid exists and, when known,
    /// started when the publisher did (a reused pid is another process).
    static func isRunning(_ pid: Int32, startedAt start: String?) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let start else { return true }
        return processStart(pid) == start
    }

    /// The start time of a process in clock ticks since boot (field 22 of /proc/PID/stat).
    static func processStart(_ pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
