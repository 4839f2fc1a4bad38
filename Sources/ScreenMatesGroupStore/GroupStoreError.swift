import Foundation
import ScreenMatesCore

/// Why a group-store operation failed, with what the user can do.
public enum GroupStoreError: Error, Hashable, Sendable {
    /// No group has this code.
    case unknownCode(GroupCode)
    /// Another member of the group already uses this display name (names are compared without
    /// regard to case).
    case nameTaken(DisplayName)
    /// Too many wrong codes were tried; try again after this many seconds.
    case tooManyAttempts(retryAfterSeconds: Int)
    /// The user is not a member of the group.
    case notAMember(code: GroupCode)
    /// A value out of range (a goal of 0 blocks…).
    case invalidValue(String)
    /// The store cannot be reached or used right now (missing server, locked or unreadable
    /// file); the caller keeps working from its cache and retries.
    case unavailable(location: String, detail: String)
    /// The store answered but could not take a write now: another connection holds what it
    /// needs (a PostgreSQL group's row, held by someone's open transaction past the server's
    /// lock timeout). Reads still work; the caller keeps the update and tries again.
    case busy(location: String, detail: String)
    /// The store is damaged or was written by a newer version.
    case unusable(location: String, detail: String)
    /// The group has no challenge with this id.
    case unknownChallenge(String)
    /// The group has a challenge with this id already.
    case challengeExists(String)
    /// The challenge's first day is over: it can no longer be joined.
    case challengeClosed(String)
    /// No challenge open to all on this store has this id.
    case unknownOpenChallenge(String)
    /// The user has not joined this open challenge.
    case notAParticipant(String)
    /// Someone on the open challenge's board already goes by this name (compared without regard
    /// to case).
    case nameTakenOnBoard(DisplayName, challengeID: String)
    /// Only the store's owner may do this; the detail says who that is.
    case notStoreOwner(String)
    /// The store does not take this member as who they say they are (another login or secret
    /// holds the user id); the detail says what to do.
    case identityRefused(String)
    /// The member's user id is from before the store checked identities, and waits for the
    /// store's owner to bind it to this login; updates are kept meanwhile.
    case awaitingApproval(location: String, userID: UserID, role: String, fingerprint: String)
    /// The store does not know this machine of the member's: it must be added first.
    case unknownMachine(MachineID?)
    /// The member removed this machine: it writes no more.
    case machineRetired(MachineName?)
    /// Another machine of the member's in use has this name (compared without regard to case).
    case machineNameTaken(MachineName)

    public var message: String {
        switch self {
        case .unknownCode(let code):
            return "There is no group with the code \(code). Check the code with the person who shared it."
        case .nameTaken(let name):
            return
                "Someone in this group is already called \(name). Choose another display name (`screenmates setup --name`)."
        case .tooManyAttempts(let seconds):
            let minutes = max(1, (seconds + 59) / 60)
            return "Too many wrong group codes. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
        case .notAMember(let code):
            return "You are not a member of group \(code). Join it with `screenmates group join \(code)`."
        case .invalidValue(let detail):
            return detail
        case .unavailable(let location, let detail):
            return
                "The group store \(location) cannot be reached (\(detail)). Working offline; updates are kept and sent when it is back."
        case .busy(let location, let detail):
            return "The group store \(location) is busy: \(detail). Updates are kept and sent once it takes them."
        case .unusable(let location, let detail):
            return "The group store \(location) cannot be used: \(detail)."
        case .unknownChallenge(let id):
            return
                "Your group has no challenge \(SafeText.displayable(id)); `screenmates challenge list` shows the group's."
        case .challengeExists(let id):
            return "Your group has a challenge \(SafeText.displayable(id)) already."
        case .challengeClosed(let id):
            return "Challenge \(SafeText.displayable(id)) has begun: it could be joined until its first day ended."
        case .unknownOpenChallenge(let id):
            return
                "The group store has no challenge \(SafeText.displayable(id)) open to all; `screenmates challenge list --open-to-all` shows them."
        case .nameTakenOnBoard(let name, let id):
            return
                "Someone on the board of challenge \(SafeText.displayable(id)) is already called \(name); choose another display name (`screenmates setup --name`) to join it."
        case .notAParticipant(let id):
            return
                "You have not joined challenge \(SafeText.displayable(id)); join it with `screenmates challenge join`."
        case .identityRefused(let detail), .notStoreOwner(let detail):
            return detail
        case .awaitingApproval(let location, let userID, let role, let fingerprint):
            let safe = SafeText.displayable(String(fingerprint.prefix(16)))
            return
                "You were in this group before \(location) checked who is who: it waits for its owner to confirm "
                + "that user id \(userID) is you (`screenmates group claims --approve \(userID) --role \(role) "
                + "--fingerprint \(safe)`, run by the owner; tell them your fingerprint \(safe)). Your updates are "
                + "kept and sent once it is confirmed."
        case .unknownMachine(let id):
            return
                "The group store does not know this machine (\(id.map(\.value) ?? "first")) of yours yet; it is added "
                + "when ScreenMates next sends from it."
        case .machineRetired(let name):
            return "This machine\(name.map { " (\($0))" } ?? "") was removed from your machines: its past days still "
                + "count, and it sends nothing more. Add it again with `screenmates devices add`."
        case .machineNameTaken(let name):
            return "Another of your machines is called \(name); choose another name."
        }
    }

    /// Whether the caller should keep its updates and try again later.
    public var isTransient: Bool {
        switch self {
        case .unavailable, .busy, .awaitingApproval: true
        default: false
        }
    }
}
