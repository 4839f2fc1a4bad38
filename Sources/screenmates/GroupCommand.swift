import ArgumentParser
import Foundation
import ScreenMatesApp
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore

struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Create, join, leave or show your group.",
        subcommands: [Create.self, Join.self, Leave.self, Show.self, PrepareStore.self])

    /// The pieces every group subcommand needs.
    static func actions(_ global: GlobalOptions) throws(AppError) -> GroupActions {
        let home = try global.resolveHome()
        try home.requireData()
        do {
            let store = try home.openStore()
            let clock = try ClockSource.choose(speed: nil, startAt: nil, store: store, publish: false).clock
            return GroupActions(local: store, location: try global.resolveGroupStore(home: home), clock: clock)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    struct PrepareStore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prepare-store",
            abstract: "Create or update the group store's tables (run once by a PostgreSQL database's owner).",
            discussion: """
                Every command does this by itself when its role may; a server where members connect as \
                roles that own nothing needs its owner to run this once, and again after an update.
                """)

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let location = try global.resolveGroupStore(home: try global.resolveHome())
                do throws(GroupStoreError) {
                    try await location.prepare()
                } catch {
                    throw AppError(error.message, exitStatus: error.isTransient ? 1 : 70)
                }
                print("The group store \(location) is ready.")
                return 0
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group and print its code to share.")

        @OptionGroup var global: GlobalOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The group's daily limit in vice blocks (1-96).", valueName: "blocks"))
        var goal = 8

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let group = try await GroupCommand.actions(global).create(goal: goal)
                print("Created group \(group.code) with a daily goal of \(group.dailyGoalBlocks) blocks.")
                print("Share the code: \(group.code)")
                return 0
            }
        }
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join a group by its 6-character code.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The code (case and spaces do not matter).")
        var code: String

        func validate() throws {
            do {
                _ = try GroupCode(validating: code)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let group = try await GroupCommand.actions(global).join(try! GroupCode(validating: code))
                print(
                    "Joined group \(group.code): \(group.memberCount) member\(group.memberCount == 1 ? "" : "s"), "
                        + "a daily goal of \(group.dailyGoalBlocks) blocks.")
                return 0
            }
        }
    }

    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Leave your group.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let code = try await GroupCommand.actions(global).leave()
                print("Left group \(code).")
                return 0
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your group and its members.")

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON.")
        var json = false

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let actions = try GroupCommand.actions(global)
                let (snapshot, offline) = try await actions.show()
                let report = GroupReport(
                    snapshot: snapshot, offline: offline, local: actions.local, clock: actions.clock)
                print(json ? report.json() : report.text())
                return 0
            }
        }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Report your numbers and finished days to the group store now, once.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let actions = try GroupCommand.actions(global)
            guard let membership = try? actions.local.settings()?.group else {
                print("You are not in a group; there is nothing to sync.")
                return 0
            }
            guard let result = await actions.syncOnce() else {
                throw AppError(
                    "Could not reach the group store \(actions.location). Your numbers are kept and will be sent next time."
                )
            }
            print(
                "Synced with group \(membership.code): your numbers and \(result.days) finished day\(result.days == 1 ? "" : "s"); "
                    + "\(result.members) member\(result.members == 1 ? "" : "s").")
            return 0
        }
    }
}

/// Runs an async command body, turning an `AppError` into a message and its exit status.
func reporting(_ body: () async throws(AppError) -> Int32) async throws {
    let status: Int32
    do {
        status = try await body()
    } catch {
        FileHandle.standardError.write(Data("screenmates: \(error.message)\n".utf8))
        throw ExitCode(error.exitStatus)
    }
    if status != 0 { throw ExitCode(status) }
}
