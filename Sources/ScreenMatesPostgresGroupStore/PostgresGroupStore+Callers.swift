import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import Synchronization

// Who calls: every call proves a member by their user id and secret, from the store's keyring.
extension PostgresGroupStore {
    /// A member as a call proves them: their user id and secret, as the server's functions take them.
    struct Caller: Sendable {
        let id: String
        let secret: String
    }

    /// The member `userID`, with the secret from the keyring; a member this store holds no
    /// secret for cannot be acted as.
    func caller(_ userID: UserID) throws(GroupStoreError) -> Caller {
        guard let secret = keyring.secret(userID) else {
            throw .identityRefused(
                "This home holds no secret for user id \(userID), so it cannot act as that member in the group store.")
        }
        return Caller(id: userID.value, secret: secret.hex)
    }

    /// The member who reads group `code`: the one this store saw create or join it, else the
    /// keyring's reader.
    func reader(_ code: GroupCode) throws(GroupStoreError) -> Caller {
        guard let userID = readers[code] ?? keyring.reader() else {
            throw .identityRefused(
                "This home has no member identity yet: set up a profile first (`screenmates setup`).")
        }
        return try caller(userID)
    }
}

/// Which member of a keyring reads each group: the first a store saw create or join it.
final class GroupReaders: Sendable {
    private let map = Mutex<[GroupCode: UserID]>([:])

    subscript(code: GroupCode) -> UserID? {
        map.withLock { $0[code] }
    }

    /// `userID` created or joined `code`: they read it unless a member did before them.
    func note(_ userID: UserID, in code: GroupCode) {
        map.withLock { map in
            if map[code] == nil { map[code] = userID }
        }
    }

    /// `userID` left `code`: someone else (the keyring's reader) reads it from now on.
    func forget(_ userID: UserID, in code: GroupCode) {
        map.withLock { map in
            if map[code] == userID { map[code] = nil }
        }
    }

    /// `userID` is gone from the store (their account deleted): others read their groups.
    func forget(_ userID: UserID) {
        map.withLock { map in map = map.filter { $0.value != userID } }
    }
}
