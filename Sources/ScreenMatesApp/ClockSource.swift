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
        /// True when this process published its clock (and should withdraw it on exit).
        public let published: Bool
    }

    public static let speedRange = 0.001...1_000_000.0

    public static func choose(speed: Double?, startAt: Date?, store: LocalStore, publish: Bool) throws(AppError)
        -> Choice
    {
        if let speed, !speedRange.contains(speed) {
            throw .usage("--speed must be between 0.001 and 1000000 (it is \(speed)).")
        }
        if speed != nil || startAt != nil {
            let realNow = Date()
            let clock = SimulatedClock(startingAt: startAt ?? realNow, speed: speed ?? 1)
            if publish {
                do {
                    try writePublication(origin: clock.origin, realAnchor: realNow, speed: clock.speed, in: store)
                } catch {
                    throw AppError(error)
                }
            }
            return Choice(clock: AdjustableClock(clock), published: publish)
        }
        if let publication = try? store.publishedClock(), publication.pid != getpid(),
            isRunning(publication.pid, startedAt: publication.processStart)
        {
            let clock = SimulatedClock(startingAt: publication.appTime(atReal: Date()), speed: publication.speed)
            return Choice(clock: clock, published: false)
        }
        return Choice(clock: SystemClock(), published: false)
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
