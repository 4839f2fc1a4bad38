import ArgumentParser
import Foundation
import ScreenMatesHome

struct RecoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Rescue what a damaged local database still holds.",
        discussion: """
            Copies every readable event, the profile and the apps into a new database, derives the \
            history again, and keeps the damaged file under a new name (it is never deleted). \
            Stop the dashboard and any monitor first.
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reporting { () throws(AppError) -> Int32 in
            let home = try global.resolveHome()
            print(try RecoverySession.run(home: home, timeZone: machineTimeZone))
            return 0
        }
    }
}
