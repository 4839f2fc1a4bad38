import Foundation
import ScreenMatesGroupStore
import ScreenMatesSQLiteGroupStore

/// A temporary directory for one test, removed when the test lets go of it; each store it
/// hands out gets a directory of its own inside.
package final class Scratch: Sendable {
    package let path: String

    package init() {
        path = NSTemporaryDirectory() + "screenmates-group-store-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A store path in a new, empty directory.
    package func newStorePath() -> String {
        let directory = path + "/" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/group-store.sqlite"
    }

    /// The contract's stores: SQLite files in this directory.
    package var fixture: GroupStoreContract.Fixture {
        GroupStoreContract.Fixture(
            fresh: { try await SQLiteGroupStore.open(at: self.newStorePath()) },
            shared: {
                let path = self.newStorePath()
                return (try await SQLiteGroupStore.open(at: path), try await SQLiteGroupStore.open(at: path))
            })
    }
}
