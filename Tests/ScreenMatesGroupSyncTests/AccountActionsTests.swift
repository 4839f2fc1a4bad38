import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// A member's account across machines, against a real group-store file: the identity file a home
/// keeps, a restore into a new home (group, name, versions, days as history and streak), and
/// deleting the account.
@Suite struct AccountActionsTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let calendar = DayCalendar(timeZone: utc)
    static let now = Date(timeIntervalSince1970: 1_795_000_000 + 12 * 3600)  // 2026-11-18 20:26 UTC
    static let today = calendar.day(containing: now)
    static let apps = [TrackedApp(id: "tiktok", name: "TikTok", bundleID: "t", category: .vice)]

    /// A directory with a group-store file and room for homes.
    final class Machines {
        let directory = NSTemporaryDirectory() + "screenmates-account-" + UUID().uuidString
        let location: GroupStoreLocation
        let store: any GroupStore

        init() async throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            location = .sqlite(path: directory + "/group-store.sqlite")
            store = try await location.open(creating: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func home(_ name: String) throws -> (HomeDirectory, LocalStore) {
            let home = HomeDirectory(path: directory + "/" + name)
            _ = try home.prepare()
            return (home, try home.openStore())
        }

        func actions(_ home: HomeDirectory, _ local: LocalStore) -> AccountActions {
            AccountActions(
                home: home, local: local, location: location, clock: ManualClock(AccountActionsTests.now),
                timeZone: .fixed(AccountActionsTests.utc))
        }
    }

    @Test func aHomesIdentityIsMadeOnceKeptPrivateAndNeverReplaced() async throws {
        let machines = try await Machines()
        let (home, _) = try machines.home("ana")
        let file = MemberIdentityFile(home: home)
        #expect(try file.read() == nil)
        let made = try #require(try file.identity(for: UserID("ana23456")))
        #expect(made.secret.hex.count == 64)
        #expect(!String(describing: made.secret).contains(made.secret.hex), "a secret never shows in a description")
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // Asked again, by another process (a new reader) too: the same identity.
        #expect(try MemberIdentityFile(home: home).identity(for: UserID("ana23456")) == made)
        // Another user id gets no secret from this home.
        #expect(try MemberIdentityFile(home: home).identity(for: UserID("bo234567")) == nil)
        #expect(MemberIdentityFile(home: home).keyring.secret(UserID("bo234567")) == nil)
        #expect(MemberIdentityFile(home: home).keyring.reader() == UserID("ana23456"))
    }

    @Test func aDamagedIdentityFileIsNamedNotReplaced() async throws {
        let machines = try await Machines()
        let (home, _) = try machines.home("ana")
        let file = MemberIdentityFile(home: home)
        try Data("user_id=ana23456\nsecret=not-hex\n".utf8).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: AppError.self) { try file.read() }
        #expect(throws: AppError.self) { try file.identity(for: UserID("ana23456")) }
        #expect(try String(contentsOfFile: file.path, encoding: .utf8).contains("not-hex"), "left as it was")
    }

    /// bo shared a profile and three finished days with the group; on a new machine, with a
    /// copy of his identity, the restore brings back his group, name, days and streak, and his
    /// next report is newer than anything the group holds of him.
    @Test func aRestoreOnANewMachineBringsBackTheGroupNameDaysAndStreak() async throws {
        let machines = try await Machines()
        let ana = MemberProfile(
            userID: UserID("ana23456"), displayName: try DisplayName(validating: "ana"), blocksToday: 1,
            day: Self.today,
            streak: 0, lastActive: nil, lastUpdated: Self.now, version: 1)
        var bo = ana
        bo.userID = UserID("bo234567")
        bo.displayName = try DisplayName(validating: "bo")
        bo.version = 40
        let group = try await machines.store.createGroup(dailyGoalBlocks: 6, creator: ana, now: Self.now)
        _ = try await machines.store.join(code: group.code, member: bo, now: Self.now)
        try await machines.store.upsertDayTotals(
            [(-3, 2), (-2, 9), (-1, 3)].map { offset, vice in
                DayTotal(
                    userID: bo.userID, date: Self.today.adding(days: offset), viceBlocks: vice, goalBlocks: 6,
                    version: 41)
            }, code: group.code)
        let copy = machines.directory + "/bo-identity-copy"
        let identity = MemberIdentityFile.Identity(userID: bo.userID, secret: .random())
        try MemberIdentityFile(path: copy).write(identity, replacing: false)

        let (home, local) = try machines.home("bo-new")
        let restored = try await machines.actions(home, local).restore(identityFile: copy, apps: Self.apps)
        #expect(restored.userID == bo.userID && restored.name.value == "bo" && restored.code == group.code)
        #expect(restored.days == 3)
        #expect(restored.streak == 1, "kept, over, kept: one day since the last day over")
        let settings = try #require(try local.settings())
        #expect(settings.userID == bo.userID && settings.displayName?.value == "bo")
        #expect(settings.group?.code == group.code && settings.group?.dailyGoalBlocks == 6)
        #expect(try local.history().map(\.viceBlocks) == [2, 9, 3])
        #expect(try local.history().allSatisfy(\.synced), "the group has them already")
        #expect(try local.nextMemberVersion() > 41)
        #expect(try MemberIdentityFile(home: home).read() == identity)
        // The same copy into a home of another member is refused, and changes nothing there.
        let (other, otherLocal) = try machines.home("cy")
        _ = try otherLocal.createProfileIfNeeded(
            userID: UserID("cy234567"), trackingStart: Self.today, apps: Self.apps, now: Self.now)
        await #expect(throws: AppError.self) {
            _ = try await machines.actions(other, otherLocal).restore(identityFile: copy, apps: Self.apps)
        }
        #expect(try otherLocal.settings()?.userID == UserID("cy234567"))
        #expect(try MemberIdentityFile(home: other).read() == nil)
    }

    @Test func aMemberTheStoreDoesNotKnowIsToldSo() async throws {
        let machines = try await Machines()
        let (home, local) = try machines.home("nobody")
        _ = try MemberIdentityFile(home: home).identity(for: UserID("zz234567"))
        do {
            _ = try await machines.actions(home, local).restore(identityFile: nil, apps: Self.apps)
            Issue.record("a restore found a member the store does not hold")
        } catch {
            #expect(error.message.contains("holds nothing for user id zz234567"), "\(error.message)")
        }
    }

    @Test func deletingTheAccountEmptiesTheStoreOfTheMemberAndTheHomeOfItsData() async throws {
        let machines = try await Machines()
        let (home, local) = try machines.home("ana")
        let settings = try local.createProfileIfNeeded(
            userID: UserID("ana23456"), trackingStart: Self.today, apps: Self.apps, now: Self.now)
        _ = try MemberIdentityFile(home: home).identity(for: settings.userID)
        let profile = MemberProfile(
            userID: settings.userID, displayName: try DisplayName(validating: "ana"), blocksToday: 0, day: Self.today,
            streak: 0, lastActive: nil, lastUpdated: Self.now, version: 1)
        let group = try await machines.store.createGroup(dailyGoalBlocks: 8, creator: profile, now: Self.now)
        #expect(try await machines.actions(home, local).delete(keepingLocal: false) == 1)
        #expect(try await machines.store.account(userID: settings.userID) == .empty)
        #expect(try await machines.store.group(code: group.code, userID: settings.userID, now: Self.now) == nil)
        #expect(!FileManager.default.fileExists(atPath: home.databasePath))
        #expect(!FileManager.default.fileExists(atPath: MemberIdentityFile(home: home).path))
    }
}
