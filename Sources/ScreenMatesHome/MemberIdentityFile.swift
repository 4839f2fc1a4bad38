import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesGroupStore
import Synchronization

/// Who this home is to a group store that checks identities: the member's user id and secret,
/// in `member-identity` in the home (mode 0600), never printed.
///
/// It is made the first time the home acts in a group store, for the profile's user id, and
/// kept whatever else is cleared: with a copy of it, `screenmates restore` on another machine
/// gets the member back. A file that exists is never replaced, so a home cannot lose the secret
/// its id is bound to; one that cannot be read refuses every call, saying which file.
public final class MemberIdentityFile: Sendable {
    public let path: String
    private let loaded = Mutex<Identity?>(nil)

    /// A user id and the secret that proves it.
    public struct Identity: Hashable, Sendable {
        public var userID: UserID
        public var secret: MemberSecret

        public init(userID: UserID, secret: MemberSecret) {
            self.userID = userID
            self.secret = secret
        }
    }

    public static let fileName = "member-identity"

    public init(home: HomeDirectory) {
        path = home.path + "/" + Self.fileName
    }

    public init(path: String) {
        self.path = path
    }

    /// The identity in the file, or nil when there is none yet. A file that is there but cannot
    /// be read or is not one is an error naming it.
    public func read() throws(AppError) -> Identity? {
        if let identity = loaded.withLock({ $0 }) { return identity }
        guard let data = FileManager.default.contents(atPath: path) else {
            if access(path, F_OK) == 0 { throw AppError("Cannot read \(path): \(String(cString: strerror(EACCES))).") }
            return nil
        }
        let identity = try Self.parse(data, path: path)
        loaded.withLock { $0 = identity }
        return identity
    }

    /// The identity for `userID`: the file's, made now with a fresh secret when there is none.
    /// Nil when the file belongs to another user id.
    public func identity(for userID: UserID) throws(AppError) -> Identity? {
        if let existing = try read() { return existing.userID == userID ? existing : nil }
        let made = Identity(userID: userID, secret: .random())
        try write(made, replacing: false)
        return try read().flatMap { $0.userID == userID ? $0 : nil }
    }

    /// Puts `identity` in the file (a restore on a new machine). Replaces a file only when
    /// `replacing`; an existing file for another id is otherwise an error.
    public func write(_ identity: Identity, replacing: Bool) throws(AppError) {
        let text = """
            # ScreenMates: who you are to a group store. Keep it private, and keep a copy:
            # with it, `screenmates restore` brings your group back on another machine.
            user_id=\(identity.userID.value)
            secret=\(identity.secret.hex)

            """
        if replacing {
            try AtomicFile.write(Data(text.utf8), to: path, mode: 0o600)
        } else {
            // O_EXCL: two processes making the file at once keep one identity, never two.
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { return }
                throw AppError("Cannot create \(path): \(String(cString: strerror(errno))).")
            }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == bytes.count, synced else {
                unlink(path)
                throw AppError("Cannot write \(path): \(String(cString: strerror(errno))).")
            }
        }
        loaded.withLock { $0 = nil }
    }

    /// The keyring a group store acts with for this home: its own member only.
    public var keyring: MemberKeyring {
        MemberKeyring(
            reader: { [self] in (try? read())?.userID },
            secret: { [self] userID in (try? identity(for: userID))?.secret })
    }

    package static func parse(_ data: Data, path: String) throws(AppError) -> Identity {
        var userID: UserID?
        var secret: MemberSecret?
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#") || text.isEmpty { continue }
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "user_id": userID = try? UserID(validating: parts[1])
            case "secret": secret = try? MemberSecret(validating: parts[1])
            default: continue
            }
        }
        guard let userID, let secret else {
            throw AppError(
                "\(path) is not a member identity (it needs a user_id= and a secret= line). Put back the copy you kept, "
                    + "or move the file away to start a new identity (your group will not know it).")
        }
        return Identity(userID: userID, secret: secret)
    }
}
