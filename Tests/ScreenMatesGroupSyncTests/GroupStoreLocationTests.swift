import Foundation
import ScreenMatesGroupSync
import ScreenMatesHome
import Testing

/// Where the group store is, and what a home remembers of it: never a password, nor the `…` that
/// homes of earlier versions kept in its place.
@Suite struct GroupStoreLocationTests {
    private let home = HomeDirectory(path: NSTemporaryDirectory() + "screenmates-location-" + UUID().uuidString)

    @Test func aStoreIsRememberedWithoutItsPassword() throws {
        let named = try GroupStoreLocation.resolve(
            option: "postgres://ana:s3cret@db.example.org/groups?password=s3cret&sslrootcert=/etc/db.pem",
            environment: [:], home: home)
        #expect(named.remembered == "postgres://ana@db.example.org/groups?sslrootcert=/etc/db.pem")
        #expect(!named.description.contains("s3cret"))
        let file = try GroupStoreLocation.resolve(option: "/srv/groups/store.sqlite", environment: [:], home: home)
        #expect(file.remembered == "/srv/groups/store.sqlite")
    }

    /// A remembered URL with the stand-in (or any password) is read as one with none, so the
    /// password comes from PGPASSWORD or ~/.pgpass and `…` is never sent.
    @Test func aRememberedURLGivesNoPassword() throws {
        let location = try GroupStoreLocation.resolve(
            option: nil, environment: ["PGPASSWORD": "from-env"], home: home,
            remembered: "postgres://ana:…@db.example.org/groups?password=…&sslmode=verify-full")
        #expect(location.remembered == "postgres://ana@db.example.org/groups?sslmode=verify-full")
        #expect(location.description == "postgres://ana@db.example.org/groups?sslmode=verify-full")
        // The option and the environment still win over what the home remembers.
        let named = try GroupStoreLocation.resolve(
            option: "postgres://bo@other.example.org/g", environment: [:], home: home,
            remembered: "postgres://ana@db.example.org/groups")
        #expect(named.remembered == "postgres://bo@other.example.org/g")
    }
}
