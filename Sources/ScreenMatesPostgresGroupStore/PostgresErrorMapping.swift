import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore

/// A stored value the program cannot read back (a name that is not a valid display name…):
/// damage, or another program's rows. Reported as `.unusable`, never a crash.
struct UnreadableValue: Error {
    let what: String
}

/// No answer from the server within the time the address allows.
struct NoAnswer: Error {
    let after: Duration
}

/// What an operation was about, so a server's refusal can name it in the error.
struct OperationContext: Sendable {
    var code: GroupCode?
    var name: DisplayName?
    var userID: UserID?
}

extension GroupStoreError {
    /// The SQLSTATEs the schema's functions raise (class `SM`, which PostgreSQL does not use). An
    /// unknown code is an answer, not an error: the functions return it as such.
    enum RefusalState {
        static let nameTaken = "SMNAM"
        static let notAMember = "SMNOT"
        static let neverJoined = "SMNEW"
        static let invalidValue = "SMVAL"
        static let tooManyAttempts = "SMLIM"
        /// The user id is bound to another login or another secret.
        static let notYours = "SMWHO"
        /// The secret sent is not one (a damaged file).
        static let badSecret = "SMKEY"
        /// A user id from before identities, waiting for the store's owner.
        static let claimWaiting = "SMCLM"
        /// A quota (groups a day, members of a group, challenges running…).
        static let quota = "SMQTA"
    }

    /// Maps an error met while using the server at `location` to what the caller can act on: a
    /// refusal (unknown code, name taken…), the server out of reach for now (`.unavailable`:
    /// down, restarting, refusing our role, too slow — keep the updates and retry), or a schema
    /// that is not ours or damage (`.unusable`).
    static func postgres(_ error: any Error, location: String, context: OperationContext) -> GroupStoreError {
        if let error = error as? GroupStoreError { return error }
        if let error = error as? PostgresTransactionError,
            let inner = error.beginError ?? error.closureError ?? error.commitError
        {
            return postgres(inner, location: location, context: context)
        }
        if let error = error as? UnreadableValue {
            return .unusable(location: location, detail: "it holds \(error.what), which cannot be right")
        }
        if let error = error as? NoAnswer {
            return .unavailable(location: location, detail: "no answer within \(describe(error.after))")
        }
        if error is CancellationError {
            return .unavailable(location: location, detail: "no connection to the server")
        }
        if error is PostgresDecodingError {
            return .unusable(location: location, detail: "a value came back in a form this version cannot read")
        }
        guard let error = error as? PSQLError else {
            return .unavailable(location: location, detail: String(describing: error))
        }
        switch error.code {
        case .server:
            return server(error, location: location, context: context)
        case .connectionError:
            return .unavailable(location: location, detail: connectionProblem(error.underlying))
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed, .queryCancelled:
            return .unavailable(location: location, detail: "the connection to the server was lost")
        case .sslUnsupported:
            return .unavailable(location: location, detail: "the server does not offer TLS (sslmode=require)")
        case .authMechanismRequiresPassword:
            return .unavailable(
                location: location, detail: "the server wants a password: give it in the URL or in PGPASSWORD")
        default:
            return .unavailable(location: location, detail: "PostgreSQL client error (\(error.code))")
        }
    }

    private static func server(_ error: PSQLError, location: String, context: OperationContext) -> GroupStoreError {
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "PostgreSQL error \(state)"
        switch state {
        case RefusalState.nameTaken:
            if let name = context.name { return .nameTaken(name) }
        case RefusalState.notAMember:
            if let detail = error.serverInfo?[.detail], let code = try? GroupCode(validating: detail) {
                return .notAMember(code: code)
            }
        case RefusalState.neverJoined:
            let user = context.userID.map { "User \($0)" } ?? "This user"
            return .invalidValue("\(user) has not joined a group in this group store; join one first.")
        case RefusalState.invalidValue, RefusalState.quota, RefusalState.badSecret:
            return .invalidValue(message)
        case RefusalState.notYours:
            let user = context.userID.map { "User id \($0)" } ?? "Your user id"
            return .identityRefused(
                "\(user) belongs to another member of this group store (another login, or another secret). "
                    + "Use the login and the home (its `member-identity` file) this member was made with, "
                    + "or set up a new profile in a new home.")
        case RefusalState.tooManyAttempts:
            let seconds = error.serverInfo?[.detail].flatMap { Int($0) } ?? Int(GroupStoreRules.attemptWindow)
            return .tooManyAttempts(retryAfterSeconds: seconds)
        case "23505":
            // Two members taking one name at the same instant: the unique index says no.
            if let name = context.name, error.serverInfo?[.constraintName]?.contains("name_key") ?? true {
                return .nameTaken(name)
            }
        case "23514", "22003":
            return .invalidValue("The group store refused a value: \(message).")
        default:
            break
        }
        // Connection trouble, resources, shutdown or restart, a role or password refused, a
        // database missing, a conflict to retry, a lock, or a privilege missing: all things that
        // can come right without a new program.
        let transientClasses: Set<Substring> = ["08", "53", "57", "58", "28", "3D", "40", "55"]
        if transientClasses.contains(state.prefix(2)) || state == "42501" {
            return .unavailable(location: location, detail: message)
        }
        return .unusable(location: location, detail: message)
    }

    /// Words for why a connection could not be made ("Connection refused"…).
    private static func connectionProblem(_ underlying: (any Error)?) -> String {
        guard let underlying else { return "no connection could be made" }
        if let error = underlying as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = underlying as? NIOConnectionError {
            if let first = error.connectionErrors.first, let io = first.error as? IOError {
                return String(cString: strerror(io.errnoCode))
            }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "the host name could not be resolved" }
        }
        if let error = underlying as? ChannelError, case .connectTimeout(let amount) = error {
            return "no answer within \(describe(.nanoseconds(amount.nanoseconds)))"
        }
        if let error = underlying as? PSQLError { return connectionProblem(error.underlying) }
        return String(describing: underlying)
    }

    private static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
