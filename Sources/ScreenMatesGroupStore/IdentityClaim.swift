import Foundation
import ScreenMatesCore

/// A claim of a user id from before identities, waiting for the store's owner.
///
/// A store that checks identities does not bind such an id to the first login that names it
/// (anyone in the group could read it): each login that uses it files a claim, and the store's
/// owner decides, seeing every claimant.
public struct IdentityClaim: Hashable, Sendable {
    public var userID: UserID
    /// The names and groups the id holds ("bo in K7Q2XM").
    public var holds: String
    /// The login that claims it.
    public var role: String
    /// The first 4 bytes of the claim's secret hash, in hexadecimal: the claimant is shown it
    /// too, so an owner can tell two claims of one login apart.
    public var fingerprint: String
    public var claimedAt: Date
    /// How many claims the id has: more than one means someone else claims it too.
    public var claimants: Int

    public init(userID: UserID, holds: String, role: String, fingerprint: String, claimedAt: Date, claimants: Int) {
        self.userID = userID
        self.holds = holds
        self.role = role
        self.fingerprint = fingerprint
        self.claimedAt = claimedAt
        self.claimants = claimants
    }
}

/// What approving a claim did.
public enum ClaimApproval: String, Hashable, Sendable {
    /// The id is bound to the claim.
    case approved
    /// The login made no such claim.
    case noClaim = "no-claim"
    /// The login made claims with several secrets: a fingerprint must say which.
    case ambiguous
}
