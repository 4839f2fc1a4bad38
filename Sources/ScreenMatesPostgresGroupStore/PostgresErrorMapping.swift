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
        /// Only the store's owner may (publish a challenge open to all).
        static let notOwner = "SMOWN"
        /// A machine the member has not added (the detail: its id).
        static let unknownMachine = "SMDEV"
        /// A machine the member removed (the detail: its name).
        static let machineRetired = "SMRET"
        /// A name another of the member's machines in use has (the detail: the name).
        static let machineNameTaken = "SMDNM"
    }

    /// Maps an error met while using the server at `location` to what the caller can act on: a
    /// refusal (unknown code, name taken…), the server out of reach for now (`.unavailable`:
    /// down, restarting, too slow — keep the updates and retry), or something someone must fix
    /// (`.unusable`): a schema that is not ours, damage, or a login the server refused.
    ///
    /// A refused login (a wrong password, no such role, pg_hba.conf saying no, no such database,
    /// a certificate that does not check out, a password held back from a server that is not
    /// verified) is not counted as out of reach: it does not come right by waiting, and shown as
    /// "offline" it would hide its reason for good. The app shows `.unusable` as the problem it
    /// is (the dashboard's warning line, the command's error) and still keeps every update and
    /// tries again at the next change, so a fix on the server is picked up.
    ///
    /// - Parameter rootCertificate: the `sslrootcert` file the connection trusted, if any: a
    ///   certificate that does not check out against it is said to be another than the file's.
    static func postgres(
        _ error: any Error, location: String, context: OperationContext, rootCertificate: String? = nil
    ) -> GroupStoreError {
        if let error = error as? GroupStoreError { return error }
        if let error = error as? PostgresTransactionError,
            let inner = error.beginError ?? error.closureError ?? error.commitError
        {
            return postgres(inner, location: location, context: context, rootCertificate: rootCertificate)
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
        if let error = error as? PostgresAddressError {
            return .unusable(location: location, detail: error.reason)
        }
        guard let error = error as? PSQLError else {
            return .unavailable(location: location, detail: String(describing: error))
        }
        switch error.code {
        case .server:
            return server(error, location: location, context: context)
        case .connectionError:
            if let problem = certificateProblem(error.underlying, rootCertificate: rootCertificate) {
                return .unusable(location: location, detail: problem)
            }
            return .unavailable(location: location, detail: connectionProblem(error.underlying))
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed, .queryCancelled:
            return .unavailable(location: location, detail: "the connection to the server was lost")
        case .sslUnsupported:
            return .unusable(
                location: location,
                detail:
                    "the server does not offer TLS, and sslmode asks for it: turn ssl on in the server's "
                    + "postgresql.conf (sslmode=prefer goes on unencrypted, without sending a password off this machine)"
            )
        case .authMechanismRequiresPassword:
            return .unusable(
                location: location,
                detail:
                    "the server asks for a password and none was found: set PGPASSWORD, or add a line "
                    + "host:port:database:user:password to ~/.pgpass (read only when no one else may read it: "
                    + "chmod 600 ~/.pgpass)")
        case .unsupportedAuthMechanism:
            return .unusable(
                location: location,
                detail:
                    "the server asks to log in a way this program does not speak (\(error.underlying.map { "\($0)" } ?? "")); "
                    + "scram-sha-256 in the server's pg_hba.conf works")
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
        case RefusalState.notOwner:
            return GroupStoreRules.onlyTheOwnerPublishes(location, owner: "the role that owns its schema")
        case RefusalState.unknownMachine:
            return .unknownMachine(error.serverInfo?[.detail].flatMap { try? MachineID(validating: $0) })
        case RefusalState.machineRetired:
            return .machineRetired(error.serverInfo?[.detail].flatMap { try? MachineName(validating: $0) })
        case RefusalState.machineNameTaken:
            if let name = error.serverInfo?[.detail].flatMap({ try? MachineName(validating: $0) }) {
                return .machineNameTaken(name)
            }
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
        case "55P03":
            // lock_not_available: every function gives up on the group's row after its lock
            // timeout. The server answered; it is not out of reach, and reads take no lock.
            return .busy(
                location: location,
                detail:
                    "a transaction of another connection holds the group past the server's 2 s lock timeout "
                    + "(a member's, left open?)")
        default:
            break
        }
        if let refusal = loginRefusal(state: state, message: message) {
            return .unusable(location: location, detail: refusal)
        }
        // Connection trouble, resources, shutdown or restart, a conflict to retry, a lock, or a
        // privilege missing: all things that can come right without anyone doing anything.
        let transientClasses: Set<Substring> = ["08", "53", "57", "58", "40", "55"]
        if transientClasses.contains(state.prefix(2)) || state == "42501" {
            return .unavailable(location: location, detail: message)
        }
        return .unusable(location: location, detail: message)
    }

    /// The server's own words when it refused the login (first, so that a one-line warning shows
    /// them), with what to do about it; nil for any other answer.
    private static func loginRefusal(state: String, message: String) -> String? {
        let said = SafeText.displayable(message) + " (the server refused the login"
        switch state {
        case "28P01":
            return said + "; check the password: the URL's, else PGPASSWORD, else ~/.pgpass)"
        case "28000" where message.contains("pg_hba.conf"):
            return said + ": its pg_hba.conf has no line that lets this role in from here; its administrator adds one)"
        case "28000" where message.contains("does not exist"):
            return said + "; check the user name in the URL, or ask the server's administrator for the role)"
        case "28000":
            return said + ")"
        case "3D000":
            return said + "; check the database name in the URL)"
        default:
            return nil
        }
    }

    /// What went wrong when the server's certificate was checked, said with the ways out; nil
    /// when the connection failed for another reason.
    private static func certificateProblem(_ underlying: (any Error)?, rootCertificate: String?) -> String? {
        let trust =
            if let rootCertificate {
                "; the certificate in sslrootcert=\(rootCertificate) is not the one that signed it: put this server's "
                    + "own certificate (or its authority's) in that file"
            } else {
                "; for a server with a certificate of its own making, trust that certificate with "
                    + "sslrootcert=/path/to/its-certificate.pem (sslmode=require encrypts without checking, and then "
                    + "sends no password)"
            }
        let signer =
            rootCertificate.map { "the certificate in sslrootcert=\($0)" } ?? "an authority this machine trusts"
        switch underlying {
        case let error as PSQLError:
            return certificateProblem(error.underlying, rootCertificate: rootCertificate)
        case let error as NIOSSLExtraError where error == NIOSSLExtraError.failedToValidateHostname:
            return "the server's certificate is not made out to the host in the URL; name the host as the "
                + "certificate does, or check only who signed it with sslmode=verify-ca"
        case let error as NIOSSLError:
            if case .handshakeFailed(let failure) = error, "\(failure)".contains("CERTIFICATE_VERIFY_FAILED") {
                return "the server's certificate is not signed by \(signer)" + trust
            }
            return "the TLS handshake with the server failed (\(error))" + trust
        default:
            return nil
        }
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
