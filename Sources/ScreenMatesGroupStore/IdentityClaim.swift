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
    public var claimedAt: Date
    /// How many claims the id has: more than one means someone else claims it too.
    public var claimants: Int

    public init(userID: UserID, holds: String, role: String, claimedAt: Date, claimants: Int) {
        self.userID = userID
        self.holds = holds
        self.role = role
        self.claimedAt = claimedAt
        self.claimants = claimants
    }
}
