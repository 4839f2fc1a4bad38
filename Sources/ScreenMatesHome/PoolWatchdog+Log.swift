import Logging
import ScreenMatesWatch

extension PoolWatchdog {
    /// What a program does when the watchdog speaks: a stall of the tasks, and its end, in the log.
    public static func logging(to logger: Logger) -> @Sendable (Health) -> Void {
        { health in
            if health.stalled {
                logger.warning(
                    "tasks stalled: no task has run for \(health.waiting.words); this is a fault, please report it with this log",
                    metadata: ["stalls": "\(health.stalls)"])
            } else {
                logger.warning("tasks run again after \(health.longestWait.words) stalled")
            }
        }
    }

    /// The debug panel's words for the pool's health.
    public static func summary(_ health: Health) -> String {
        if health.stalled { return "STALLED for \(health.waiting.words) (stall \(health.stalls))" }
        let stalls = health.stalls == 0 ? "never stalled" : "\(health.stalls) stall\(health.stalls == 1 ? "" : "s")"
        return "running · \(stalls) · longest wait \(health.longestWait.words)"
    }
}

extension Duration {
    /// "12 s", "340 ms".
    fileprivate var words: String {
        let milliseconds = Int(self / .milliseconds(1))
        return milliseconds >= 10_000 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
