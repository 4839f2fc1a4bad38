import Foundation
import Glibc
import ScreenMatesHome
import Testing

@Suite struct HomeDirectoryTests {
    @Test func theOptionWinsOverTheEnvironmentAndXDGOverHome() throws {
        let env = ["SCREENMATES_HOME": "/env/home", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ana"]
        #expect(try HomeDirectory.resolve(option: "/opt/h", environment: env).path == "/opt/h")
        #expect(try HomeDirectory.resolve(option: nil, environment: env).path == "/env/home")
        #expect(
            try HomeDirectory.resolve(option: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/h"]).path
                == "/xdg/screenmates")
        #expect(
            try HomeDirectory.resolve(option: nil, environment: ["HOME": "/h"]).path == "/h/.local/share/screenmates")
        // A relative XDG_DATA_HOME is invalid by the XDG rules and ignored.
        #expect(
            try HomeDirectory.resolve(option: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]).path
                == "/h/.local/share/screenmates")
        #expect(throws: AppError.self) { try HomeDirectory.resolve(option: nil, environment: [:]) }
    }

    /// A directory ScreenMates creates is private (0700); an existing one keeps its mode (it may
    /// be a shared directory given by mistake), with a warning when others may use it.
    @Test func prepareCreatesAPrivateDirectoryAndNeverChangesAnExistingOne() throws {
        let base = NSTemporaryDirectory() + "screenmates-home-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let home = HomeDirectory(path: base + "/a/b")
        #expect(try home.prepare() == nil, "no warning for a directory it made")
        var info = stat()
        #expect(stat(home.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        chmod(home.path, 0o755)
        let warning = try #require(try home.prepare())
        #expect(stat(home.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o755, "the mode stays as the owner set it")
        #expect(warning.contains(home.path) && warning.contains("755") && warning.contains("chmod 700"), "\(warning)")
        chmod(home.path, 0o700)
        #expect(try home.prepare() == nil)
    }

    @Test func aFileInThePlaceOfTheDirectoryIsAClearError() throws {
        let path = NSTemporaryDirectory() + "screenmates-file-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try HomeDirectory(path: path).prepare()
        } throws: { error in
            (error as? AppError)?.message.contains("not a directory") == true
        }
    }
}
