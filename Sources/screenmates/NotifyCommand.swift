import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesHome

/// `screenmates notify test`: sends a test notice.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify", abstract: "Notifications.", subcommands: [NotifyTestCommand.self])
}

struct NotifyTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send a test notice.",
        discussion: """
            It is recorded with your notices; an open dashboard shows it as a toast within a \
            second (one dashboard, when several are open), and it appears in the log (n) and in \
            `status --json`. It is sent even when notices are turned off.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "Send the notice this challenge gives when its app is opened while its rule forbids it.",
            valueName: "ID"))
    var challenge: String?

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let home = try global.resolveHome()
            try home.requireData()
            let notice = try NoticeSender.sendTest(home: home, timeZone: machineTimeZone, challenge: challenge)
            print("Sent a test notice: \(notice.title). \(notice.body)")
            return 0
        }
    }
}
