import Foundation
import ScreenMatesGroupStore
import ScreenMatesSQLiteGroupStore

/// A temporary directory for one test, removed when the test lets go of it; each store it
/// hands out gets a directory of its own inside.
final class Scratch: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "screenmates-group-store-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A store path in a new, empty directory.
    func newStorePath() -> String {
        let directory = path + "/" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/group-store.sqlite"
    }

    /// The contract's stores: SQLite files in this directory.
    var fixture: GroupStoreContract.Fixture {
        GroupStoreContract.Fixture(
            fresh: { try await SQLiteGroupStore.open(at: self.newStorePath()) },
            shared: {
                let path = self.newStorePath()
                return (try await SQLiteGroupStore.open(at: path), try await SQLiteGroupStore.open(at: path))
            })
    }
}
