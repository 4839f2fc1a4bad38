import ArgumentParser
import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHome

/// `screenmates devices`: your machines, counted as one person in your group.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Your machines, whose usage your group counts as one person's.",
        discussion: """
            Every home with your identity (`screenmates restore --identity FILE` on another machine) is \
            one of your machines: your group sees the sum of their blocks, counted once. Without a \
            group, a home is one machine.
            """,
        subcommands: [List.self, Rename.self, Remove.self, Add.self],
        defaultSubcommand: List.self)

    static func actions(_ global: GlobalOptions) throws(AppError) -> MachineActions {
        try MachineActions.open(
            home: try global.resolveHome(), groupStore: global.groupStoreChoice, timeZone: machineTimeZone)
    }

    static func name(_ text: String) throws(AppError) -> MachineName {
        do {
            return try MachineName(validating: text)
        } catch {
            throw .usage(error.message)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your machines: name, last seen, today's blocks on each.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let actions = try DevicesCommand.actions(global)
                let listing = try await actions.list()
                guard listing.group != nil else {
                    print(
                        "This home is one machine (\(listing.this.name)): it is in no group, so there is nothing to "
                            + "add up. Join a group to count several machines as one person.")
                    return 0
                }
                print(DevicesCommand.table(listing, now: actions.clock.now(), timeZone: machineTimeZone.current()))
                return 0
            }
        }
    }

    /// The listing as `devices` prints it: one line per machine, the ones in use first.
    static func table(_ listing: MachineActions.Listing, now: Date, timeZone: TimeZone) -> String {
        let calendar = DayCalendar(timeZone: timeZone, dayStartHour: listing.dayStartHour)
        let today = calendar.day(containing: now)
        let ordered = listing.machines.filter(\.isInUse) + listing.machines.filter { !$0.isInUse }
        let names = ordered.map { $0.name.value + (listing.isThis($0) ? " (this one)" : "") }
        let width = max(names.map(\.count).max() ?? 0, 4) + 2
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(width - text.count, 1))
        }
        var lines = [padded("NAME", width) + padded("LAST SEEN", 11) + padded("TODAY", 7) + "ADDED"]
        for (machine, name) in zip(ordered, names) {
            let seen = machine.isInUse ? TimeFormat.relative(machine.lastSeen, now: now) : "removed"
            let blocks = machine.day == today ? "\(machine.blocksToday)" : "–"
            let added = calendar.day(containing: machine.addedAt).iso8601
            lines.append(padded(name, width) + padded(seen, 11) + padded(blocks, 7) + added)
        }
        if !listing.machines.contains(where: listing.isThis) {
            lines.append("\(listing.this.name) (this one) is added when it next sends to the group.")
        }
        lines.append("At most \(listing.limit) machines in use per person on this group store.")
        return lines.joined(separator: "\n")
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename one of your machines.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The machine's name now.")
        var name: String

        @Argument(help: "Its new name: 1 to 32 of A-Z, a-z, 0-9, '.', '_' and '-'.")
        var new: String

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let (old, renamed) = (try DevicesCommand.name(name), try DevicesCommand.name(new))
                try await DevicesCommand.actions(global).rename(old, to: renamed)
                print("\(old) is called \(renamed) now.")
                return 0
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove one of your machines: its past days stay counted; it sends nothing more.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The machine's name.")
        var name: String

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let machine = try DevicesCommand.name(name)
                if try await DevicesCommand.actions(global).remove(machine) {
                    print(
                        "Removed \(machine): what it used stays counted, and it sends nothing more "
                            + "(`screenmates devices add` on it adds it again).")
                } else {
                    print("\(machine) was removed already.")
                }
                return 0
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add this machine to yours (again, after it was removed).")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let (added, name) = try await DevicesCommand.actions(global).addThis()
                switch added {
                case .known: print("This machine (\(name)) is one of yours already.")
                case .added, .adopted: print("Added this machine as \(name).")
                }
                return 0
            }
        }
    }
}
