import Foundation
import Logging

/// Sends the log lines of a process to its home directory's log file (`FileLogHandler`), at the
/// level `SCREENMATES_LOG_LEVEL` names (else info). The logging system is set up once per
/// process: the first home asked for is the one every later logger writes to.
public enum LogSetup {
    nonisolated(unsafe) private static var done = false

    /// Sets the logging system up for `home` the first time, and returns the program's logger.
    public static func bootstrap(home: HomeDirectory) -> Logger {
        if !done {
            done = true
            let level = ProcessInfo.processInfo.environment["SCREENMATES_LOG_LEVEL"].flatMap(
                Logger.Level.init(rawValue:))
            LoggingSystem.bootstrap { label in
                var handler = FileLogHandler(label: label, path: home.logPath)
                handler.logLevel = level ?? .info
                return handler
            }
        }
        return Logger(label: "screenmates")
    }
}
