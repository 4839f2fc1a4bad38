import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesStore
import Subprocess
import SystemPackage

/// `screenmates demo --members N`: simulated group-mates for a live leaderboard.
///
/// Each mate is a real user of the product: a home directory of its own under `mates/`, a
/// `screenmates monitor` process writing its usage, and a reporter that does what a mate's
/// dashboard would — reads the mate's numbers and reports them to the shared group store. The
/// user watches from their own dashboard. Everything stops cleanly on Ctrl-C: the monitors and
/// the reporters are tasks of one group that `run` awaits, so none outlives it.
public final class GroupDemo {
    public struct Options: Sendable {
        public var members: Int
        public var speed: Double?
        public var startAt: Date?
        public var seed: UInt64

        public init(members: Int, speed: Double?, startAt: Date?, seed: UInt64) {
            self.members = members
            self.speed = speed
            self.startAt = startAt
            self.seed = seed
        }
    }

    static let names = [
        "ana", "bo", "cy", "dee", "eve", "fay", "gus", "hal", "ivo", "jo", "kai", "lu", "max", "nia", "oz", "pia",
        "quin", "rae", "sol", "tam", "uma", "vic", "wes", "xia", "yara", "zed",
    ]

    public static let maximumMembers = 200

    private let home: HomeDirectory
    private let assets: AssetCatalog
    /// The group store named for this run; without one, the user's group's, else the default.
    private let namedLocation: GroupStoreLocation?
    private let options: Options
    /// The zone everyone's days are counted in.
    private let timeZone: TimeZoneSource
    /// The command's environment: what the group store is opened with.
    private let environment: [String: String]
    private let logger: Logger

    public init(
        home: HomeDirectory, assets: AssetCatalog, location: GroupStoreLocation?, options: Options,
        timeZone: TimeZoneSource, environment: [String: String], logger: Logger
    ) throws(AppError) {
        guard (1...Self.maximumMembers).contains(options.members) else {
            throw .usage("--members must be between 1 and \(Self.maximumMembers); \(options.members) is not.")
        }
        self.home = home
        self.assets = assets
        self.namedLocation = location
        self.options = options
        self.timeZone = timeZone
        self.environment = environment
        self.logger = logger
    }

    /// Sets the group up, starts the mates, and runs until `stop` is requested.
    public func run(stop: StopRequest) async throws(AppError) -> Int32 {
        // The user's own home: in a group, its clock published for the dashboard to follow.
        let opened = try OpenedHome.open(
            home: home, assets: assets, timeZone: timeZone, speed: options.speed, startAt: options.startAt)
        defer { if opened.clock.published { ClockSource.withdraw(from: opened.store) } }
        var settings = opened.settings
        if settings.displayName == nil {
            let name = try! DisplayName(validating: "me")
            try store(opened.store) { try opened.store.setDisplayName(name) }
            settings.displayName = name
        }
        let location: GroupStoreLocation
        if let namedLocation {
            location = namedLocation
        } else {
            location = try GroupStoreLocation.resolve(
                option: nil, environment: environment, home: home, remembered: settings.group?.store, named: false)
        }
        let actions = GroupActions(
            local: opened.store, location: location, clock: opened.clock.clock, timeZone: timeZone)
        let code: GroupCode
        if let membership = settings.group {
            code = membership.code
        } else {
            code = try await actions.create(goal: settings.rules.dailyGoalBlocks).code
        }

        // Names the group has already (the user's, real members', mates of an earlier run that
        // are still in it under other homes) are passed over; a demo that cannot start takes the
        // mates it added out of the group again.
        var taken: Set<String> = [settings.displayName?.uniquenessKey ?? ""]
        var candidates = Self.mateNames().makeIterator()
        var mates: [Mate] = []
        do throws(AppError) {
            while mates.count < options.members {
                guard let name = candidates.next() else { throw AppError("Ran out of names for simulated members.") }
                guard !taken.contains(name) else { continue }
                taken.insert(name)
                if let mate = try await makeMate(
                    name, seed: UInt64(mates.count), code: code, location: location, clock: opened.clock.clock)
                {
                    mates.append(mate)
                }
            }
        } catch {
            for mate in mates {
                let actions = GroupActions(
                    local: mate.store, location: location, clock: opened.clock.clock, timeZone: timeZone)
                _ = try? await actions.leave()
            }
            throw error
        }
        let speed = options.speed.map { " at ×\($0 == $0.rounded() ? String(Int($0)) : String($0))" } ?? ""
        // A plain `screenmates dashboard` opens the default home; any other (the demo directory
        // a fast clock uses) must be named, and the dashboard then follows this clock.
        let watch =
            home.path
                == (try? HomeDirectory.resolve(option: nil, environment: environment).path)
            ? "screenmates dashboard" : "screenmates --home \(home.path) dashboard"
        print(
            "Group \(code): you and \(mates.count) simulated member\(mates.count == 1 ? "" : "s") (\(mates.map(\.name).joined(separator: ", ")))\(speed)."
        )
        print("Watch it in another terminal: \(watch)")
        print("Ctrl-C stops them.")

        let logger = logger
        await withDiscardingTaskGroup { group in
            // A reporter's watch sleeps in poll(2) on a thread of its own (joined), not on one
            // of the few threads that run every task; the stop's pipe wakes it at once.
            for mate in mates {
                group.addTask { await mate.report(stop: stop) }
            }
            // The monitors: sent SIGTERM once the stop comes (their task cancelled), and awaited.
            await withDiscardingTaskGroup { monitors in
                for mate in mates {
                    let arguments = monitorArguments(for: mate)
                    monitors.addTask { await Self.runMonitor(arguments, mate: mate.name, logger: logger) }
                }
                await stop.wait()
                monitors.cancelAll()
            }
        }
        for mate in mates where mate.publishedClock { ClockSource.withdraw(from: mate.store) }
        print("Stopped \(mates.count) simulated member\(mates.count == 1 ? "" : "s").")
        return stop.exitStatus ?? 0
    }

    // MARK: - Mates

    /// One simulated member.
    struct Mate: Sendable {
        let name: String
        let home: HomeDirectory
        let reporter: LiveReporter
        let seed: UInt64
        /// The mate's home, which carries the user's clock while the demo runs (when simulated).
        let store: LocalStore
        let publishedClock: Bool

        /// Reports the mate's numbers whenever its monitor writes, as its dashboard would.
        func report(stop: StopRequest) async { await reporter.run(stop: stop) }
    }

    /// The mates' names, in order: the 26 first names, then the same with 2, 3… after them.
    static func mateNames() -> some Sequence<String> {
        (1...).lazy.flatMap { round in names.lazy.map { round == 1 ? $0 : "\($0)\(round)" } }
    }

    /// A mate named `name`, in the group; nil when the group has someone of that name already (a
    /// real member: the mate's home stays out of the group).
    private func makeMate(
        _ name: String, seed index: UInt64, code: GroupCode, location: GroupStoreLocation, clock: any AppClock
    ) async throws(AppError) -> Mate? {
        let mateHome = HomeDirectory(path: home.path + "/mates/" + name)
        try mateHome.prepare()
        // A mate is part of the show: its usage starts afresh each run, on the user's clock.
        let simulated = options.speed != nil || options.startAt != nil
        let opened = try OpenedHome.open(
            home: mateHome, assets: assets, timeZone: timeZone, speed: options.speed,
            startAt: simulated ? clock.now() : nil, startAfresh: true)
        if opened.settings.displayName == nil {
            try store(opened.store) { try opened.store.setDisplayName(try! DisplayName(validating: name)) }
        }
        if opened.settings.group?.code != code {
            let actions = GroupActions(local: opened.store, location: location, clock: clock, timeZone: timeZone)
            do throws(GroupActions.Failure) {
                _ = try await actions.joinExplained(code)
            } catch {
                switch error {
                case .store(.nameTaken): return nil
                case .store(let refused): throw AppError(refused)
                case .app(let failed): throw failed
                }
            }
        }
        guard let settings = try? opened.store.settings(), let membership = settings.group else {
            throw AppError("Could not set up the simulated member \(name).")
        }
        let reporter = LiveReporter(
            home: mateHome, store: opened.store, location: location, membership: membership, userID: settings.userID,
            clock: clock, timeZone: timeZone, logger: logger)
        return Mate(
            name: name, home: mateHome, reporter: reporter, seed: options.seed &+ index &* 7919,
            store: opened.store, publishedClock: opened.clock.published)
    }

    /// `screenmates monitor` for a mate, on the same clock as the user: the executable and its
    /// arguments.
    ///
    /// A simulated clock is not given on its command line: the mate's home carries the user's
    /// clock, published by this process, and the monitor follows it from wherever it has got to
    /// when the monitor starts. (A `--start-at` taken before would be refused once the mate's
    /// reporter had ended a day after it: a monitor never goes back into a home's past.)
    private func monitorArguments(for mate: Mate) -> [String] {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return [executable, "monitor", "--home", mate.home.path, "--seed", "\(mate.seed)", "--quiet"]
    }

    /// Runs a mate's monitor until it ends or the task is cancelled (then it is sent SIGTERM,
    /// and killed if it has not stopped within 30 s): its input and output go nowhere, what it
    /// says on standard error reaches the user's terminal.
    private static func runMonitor(_ command: [String], mate: String, logger: Logger) async {
        var options = PlatformOptions()
        options.teardownSequence = [.send(signal: .terminate, allowedDurationToNextStep: .seconds(30))]
        do {
            _ = try await Subprocess.run(
                .path(FilePath(command[0])), arguments: Arguments(Array(command.dropFirst())),
                platformOptions: options, input: .none, output: .discarded,
                error: .fileDescriptor(.standardError, closeAfterSpawningProcess: false))
        } catch {
            logger.error("could not run a monitor for \(mate): \(error)")
        }
    }

    private func store(_ local: LocalStore, _ body: () throws -> Void) throws(AppError) {
        do {
            try body()
        } catch {
            throw AppError(error)
        }
    }
}
