import Foundation
import ScreenMatesCore

/// What proves a member to a group store that checks identities (PostgreSQL): 256 random bits
/// made on the member's machine, kept in their home readable by them alone, shown nowhere.
///
/// The store binds a user id, when it is first used, to the login that used it and to the
/// secret's hash (it never keeps the secret itself), and refuses every later call that does not
/// come from that login with that secret. Members who each have a login are told apart by the
/// login; members who share one by the secret. `description` never shows the digits.
public struct MemberSecret: Hashable, Sendable, CustomStringConvertible {
    /// Lower-case hexadecimal digits: what is sent with every call.
    public let hex: String

    /// How many random bytes a new secret has.
    public static let byteCount = 32
    /// The fewest hexadecimal digits a secret may have (128 bits).
    public static let minimumDigits = 32
    /// The most (512 bits).
    public static let maximumDigits = 128

    /// A fresh secret from the system's cryptographic random source.
    public static func random() -> MemberSecret {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> MemberSecret {
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return MemberSecret(unchecked: bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// A secret read back (from the home's file): 32–128 lower-case hexadecimal digits.
    public init(validating text: String) throws(MemberSecretError) {
        let digits = text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
        guard digits, (Self.minimumDigits...Self.maximumDigits).contains(text.utf8.count) else {
            throw .malformed
        }
        hex = text
    }

    private init(unchecked hex: String) {
        self.hex = hex
    }

    public var description: String { "MemberSecret(\(hex.utf8.count * 4) bits)" }
}

/// Why a stored secret cannot be used.
public enum MemberSecretError: Error, Hashable, Sendable {
    case malformed

    public var message: String {
        "A member secret is 32 to 128 lower-case hexadecimal digits."
    }
}

/// The members a store acts for, and the secrets that prove them: a home holds one (its own);
/// a test may hold several. A store asks it for the secret of the user id a call acts as, and
/// for the member to read as when a call names none.
public struct MemberKeyring: Sendable {
    /// The member who reads a group when the call names nobody (the home's own).
    public let reader: @Sendable () -> UserID?
    /// The secret that proves `userID`, or nil when this keyring cannot act as them.
    public let secret: @Sendable (UserID) -> MemberSecret?

    public init(reader: @escaping @Sendable () -> UserID?, secret: @escaping @Sendable (UserID) -> MemberSecret?) {
        self.reader = reader
        self.secret = secret
    }

    /// One member and their secret.
    public static func single(_ userID: UserID, _ secret: MemberSecret) -> MemberKeyring {
        MemberKeyring(reader: { userID }, secret: { $0 == userID ? secret : nil })
    }

    /// No member at all: every call that needs one is refused (a store only prepared).
    public static let none = MemberKeyring(reader: { nil }, secret: { _ in nil })
}
