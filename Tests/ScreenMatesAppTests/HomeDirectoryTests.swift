import Foundation
import Glibc
import ScreenMatesApp
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

    @Test func prepareCreatesAPrivateDirectoryAndTightensAnOpenOne() throws {
        let base = NSTemporaryDirectory() + "screenmates-home-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let home = HomeDirectory(path: base + "/a/b")
        try home.prepare()
        var info = stat()
        #expect(stat(home.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        chmod(home.path, 0o755)
        try home.prepare()
        #expect(stat(home.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
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
