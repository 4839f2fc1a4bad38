import ArgumentParser
import ScreenMatesCore
import ScreenMatesGroupSync
import ScreenMatesHome
import ScreenMatesReports
import ScreenMatesWatch

struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Create, join, leave or show your group.",
        subcommands: [Create.self, Join.self, Leave.self, Show.self, Set.self, PrepareStore.self, Claims.self])

    /// The pieces every group subcommand needs.
    static func actions(_ global: GlobalOptions, _ clock: ClockOptions? = nil) throws(AppError) -> GroupActions {
        try GroupActions.open(
            home: try global.resolveHome(), groupStore: global.groupStoreChoice, speed: clock?.speed,
            startAt: clock?.startInstant, timeZone: machineTimeZone)
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
                let location = try global.groupStoreChoice.location(home: try global.resolveHome())
                try await location.prepare()
                print("The group store \(location) is ready.")
                return 0
            }
        }
    }

    struct Claims: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "As a PostgreSQL store's owner: the members from before identities who wait, and approving one.",
            discussion: """
                A store upgraded to identities does not bind a user id it held before to the first login \
                that names it: each login that uses the id files a claim. Lists them (an id claimed by \
                more than one login: ask the members who is who), or with --approve binds the id to \
                the claim of --role. Run as the role that owns the database.
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Bind this user id to the claim of --role.", valueName: "user-id"))
        var approve: String?

        @Option(help: ArgumentHelp("The login whose claim to approve.", valueName: "role"))
        var role: String?

        @Option(
            help: ArgumentHelp(
                "The claim's fingerprint, when the login made several (the member is shown theirs).",
                valueName: "hex"))
        var fingerprint: String?

        func validate() throws {
            guard (approve == nil) == (role == nil) else { throw ValidationError("--approve and --role go together.") }
            if let approve, (try? UserID(validating: approve)) == nil {
                throw ValidationError("\(SafeText.displayable(approve)) is not a user id.")
            }
        }

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let location = try global.groupStoreChoice.location(home: try global.resolveHome())
                if let approve, let role {
                    let userID = try! UserID(validating: approve)
                    let login = SafeText.displayable(role)
                    switch try await location.approveClaim(userID: userID, role: role, fingerprint: fingerprint) {
                    case .approved:
                        print("User id \(userID) is now bound to the login \(login).")
                        return 0
                    case .noClaim:
                        throw AppError("The login \(login) has no such claim on user id \(userID).")
                    case .ambiguous:
                        throw AppError(
                            "The login \(login) claims user id \(userID) with several secrets: ask the member for the "
                                + "fingerprint their screen shows and add --fingerprint.")
                    }
                }
                let claims = try await location.pendingClaims()
                if claims.isEmpty { print("No claims are waiting.") }
                for claim in claims {
                    let holds = claim.holds.isEmpty ? "" : " (\(claim.holds))"
                    let shared = claim.claimants > 1 ? " · \(claim.claimants) claims on this id" : ""
                    print(
                        "\(claim.userID)\(holds) claimed by \(claim.role) (fingerprint \(claim.fingerprint)) at "
                            + "\(TimeFormat.iso8601(claim.claimedAt))\(shared)"
                    )
                }
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

        @OptionGroup var settlement: SettlementOptions
        @OptionGroup var clock: ClockOptions

        func validate() throws {
            do { _ = try settlement.applied(to: .standard) } catch { throw ValidationError(error.message) }
        }

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let actions = try GroupCommand.actions(global, clock)
                let group = try await actions.create(goal: goal)
                print("Created group \(group.code) with a daily goal of \(group.dailyGoalBlocks) blocks.")
                if !settlement.isEmpty {
                    print("Its " + SettlementOptions.describe(try await settlement.apply(actions)) + ".")
                }
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

        @OptionGroup var clock: ClockOptions

        func validate() throws {
            do {
                _ = try GroupCode(validating: code)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() async throws {
            try await reporting { () async throws(AppError) -> Int32 in
                let group = try await GroupCommand.actions(global, clock).joinForCommand(
                    try! GroupCode(validating: code))
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
                    snapshot: snapshot, offline: offline, local: actions.local, clock: actions.clock,
                    timeZone: actions.timeZone.current())
                print(json ? report.json() : report.text())
                return 0
            }
        }
    }
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract:
            "Report your numbers and finished days to the group store now, once (or, with --watch, as they change).",
        discussion: """
            The monitor only records usage; the group sees it when it is reported: by an open dashboard, \
            by `screenmates sync`, or by `screenmates sync --watch`, which keeps reporting every change (as a \
            dashboard would, offline-safe) until stopped — run it beside a monitor when no dashboard is open.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Keep reporting every change until stopped (Ctrl-C, SIGTERM).")
    var watch = false

    @OptionGroup var clock: ClockOptions

    func run() async throws {
        try await reporting { () async throws(AppError) -> Int32 in
            let actions = try GroupCommand.actions(global, clock)
            guard let (settings, membership) = actions.membership() else {
                print("You are not in a group; there is nothing to sync.")
                return 0
            }
            guard watch else {
                let result = try await actions.syncForCommand()
                print(
                    "Synced with group \(membership.code): your numbers and \(result.days) finished day\(result.days == 1 ? "" : "s"); "
                        + "\(result.members) member\(result.members == 1 ? "" : "s").")
                return 0
            }
            let home = try global.resolveHome()
            StopSignals.install()
            let logger = LogSetup.bootstrap(home: home)
            let reporter = LiveReporter(
                home: home, store: actions.local, location: actions.location, membership: membership,
                userID: settings.userID, clock: actions.clock, timeZone: actions.timeZone, logger: logger)
            print(
                "Reporting to group \(membership.code) through \(actions.location) as your numbers change; Ctrl-C stops."
            )
            await StopSignals.watching { stop in
                await PoolWatchdog.watching(onChange: PoolWatchdog.logging(to: logger)) {
                    await reporter.run(stop: stop)
                }
            }
            let status = reporter.status
            print(
                "Stopped. "
                    + (status.offline
                        ? "The group store was out of reach at the end; your numbers are kept and sent next time."
                        : "Last report \(status.lastSyncedAt.map(TimeFormat.iso8601) ?? "none").")
            )
            return StopSignals.requestedExitStatus() ?? 0
        }
    }
}
