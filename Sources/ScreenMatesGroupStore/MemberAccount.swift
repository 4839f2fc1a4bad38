import Foundation
import ScreenMatesCore

/// What a group store holds of one member: what a restore on a new machine brings back, and what
/// deleting the account removes.
public struct MemberAccount: Hashable, Sendable {
    /// One group the member is in, with their profile there.
    public struct Membership: Hashable, Sendable {
        public var group: Group
        public var profile: MemberProfile
        public var joinedAt: Date

        public init(group: Group, profile: MemberProfile, joinedAt: Date) {
            self.group = group
            self.profile = profile
            self.joinedAt = joinedAt
        }
    }

    /// The member's groups, the one they joined last first (the app keeps one).
    public var memberships: [Membership]
    /// The member's own day totals in the first of them, oldest first.
    public var dayTotals: [DayTotal]
    /// The version of the coins and badges they reported, if any.
    public var standingVersion: Int64?

    public init(memberships: [Membership], dayTotals: [DayTotal], standingVersion: Int64? = nil) {
        self.memberships = memberships
        self.dayTotals = dayTotals
        self.standingVersion = standingVersion
    }

    /// The newest version of anything the member sent: a restored home counts on from above it,
    /// or the store would take its next reports as stale.
    public var newestVersion: Int64 {
        (memberships.map(\.profile.version) + dayTotals.map(\.version) + [standingVersion ?? 0]).max() ?? 0
    }

    /// A member the store holds nothing of.
    public static let empty = MemberAccount(memberships: [], dayTotals: [])
}
