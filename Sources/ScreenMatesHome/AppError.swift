import ScreenMatesCore

/// A failure the user can act on: what is wrong and what to do, and the exit status.
public struct AppError: ExplainedError, Sendable, CustomStringConvertible {
    public let message: String
    /// 64 for bad input (EX_USAGE), 1 for everything else.
    public let exitStatus: Int32

    public init(_ message: String, exitStatus: Int32 = 1) {
        self.message = message
        self.exitStatus = exitStatus
    }

    public var description: String { message }

    public static func usage(_ message: String) -> AppError { AppError(message, exitStatus: 64) }

    /// Any error met while running a command, with its own message where it has one.
    public init(_ error: any Error) {
        switch error {
        case let error as AppError: self = error
        case let error as any ExplainedError: self.init(error.message)
        default: self.init(String(describing: error))
        }
    }
}
