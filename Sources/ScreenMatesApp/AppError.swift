import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTerminal

/// A failure the user can act on: what is wrong and what to do, and the exit status.
public struct AppError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// 64 for bad input (EX_USAGE), 1 for everything else.
    public let exitStatus: Int32

    public init(_ message: String, exitStatus: Int32 = 1) {
        self.message = message
        self.exitStatus = exitStatus
    }

    public var description: String { message }

    public static func usage(_ message: String) -> AppError { AppError(message, exitStatus: 64) }

    public init(_ error: StoreError) { self.init(error.message) }
    public init(_ error: TerminalError) { self.init(error.message) }

    /// Any error met while running a command, with its own message where it has one.
    public init(_ error: any Error) {
        switch error {
        case let error as AppError: self = error
        case let error as StoreError: self.init(error)
        case let error as TerminalError: self.init(error)
        default: self.init(String(describing: error))
        }
    }
}
