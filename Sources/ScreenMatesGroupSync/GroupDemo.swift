import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// `screenmates demo --members N`: simulated group-mates for a live leaderboard, watched from
/// the user's own dashboard.
///
/// The mates are `DemoMates`: simulated in this process and written straight to the group store,
/// on the user's clock (published in the user's home, which the dashboard follows). They join
/// only a group of the user's own on a shared file, and Ctrl-C takes them out again (and the
/// user too, from a group the demo made).
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

    public static let maximumMembers = DemoMates.maximum

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

    /// Sets the group up, starts the mates, and runs until `stop` is requested; then takes the
    /// mates out of the group again.
    public func run(stop: StopRequest) async throws(AppError) -> Int32 {
        // The user's own home: in a group, its clock published for the dashboard to follow.
        let opened = try OpenedHome.open(
            home: home, assets: assets, timeZone: timeZone, speed: options.speed, startAt: options.startAt)
        defer { if opened.clock.published { ClockSource.withdraw(from: opened.store) } }
        var settings = opened.settings
        let location: GroupStoreLocation
        if let namedLocation {
            location = namedLocation
        } else {
            location = try GroupStoreLocation.resolve(
                option: nil, environment: environment, home: home, remembered: settings.group?.store, named: false)
        }
        if let refusal = DemoMates.refusal(for: location) { throw AppError(refusal) }
        if settings.displayName == nil {
            let name = try! DisplayName(validating: "me")
            do {
                try opened.store.setDisplayName(name)
            } catch {
                throw AppError(error)
            }
            settings.displayName = name
        }
        let actions = GroupActions(
            local: opened.store, location: location, clock: opened.clock.clock, timeZone: timeZone)
        let code: GroupCode
        // A group made for the demo is left again when it ends (the store removes a group whose
        // last member leaves): the demo leaves no group behind.
        let madeForTheDemo = settings.group == nil
        if let membership = settings.group {
            code = membership.code
        } else {
            code = try await actions.create(goal: settings.rules.dailyGoalBlocks).code
        }
        let mates: DemoMates
        do throws(AppError) {
            guard case .profile(let profile) = try assets.scenario("typical-day") else {
                throw AppError("The scenario typical-day in \(assets.directory) is not a usage profile.")
            }
            mates = try await DemoMates.join(
                count: options.members, location: location, code: code, user: settings.userID, seed: options.seed,
                profile: profile, blockMinutes: settings.rules.blockMinutes, clock: opened.clock.clock,
                calendar: DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour),
                logger: logger)
        } catch {
            if madeForTheDemo { _ = try? await actions.leave() }
            throw error
        }
        let speed = options.speed.map { " at ×\($0 == $0.rounded() ? String(Int($0)) : String($0))" } ?? ""
        // A plain `screenmates dashboard` opens the default home; any other (the demo directory
        // a fast clock uses) must be named, and the dashboard then follows this clock.
        let watch =
            home.path
                == (try? HomeDirectory.resolve(option: nil, environment: environment).path)
            ? "screenmates dashboard" : "screenmates --home \(home.path) dashboard"
        let count = mates.count
        print(
            "Group \(code): you and \(count) simulated member\(count == 1 ? "" : "s") (\(mates.names.joined(separator: ", ")))\(speed)."
        )
        print("Watch it in another terminal: \(watch)")
        print("Ctrl-C stops them.")
        await withDiscardingTaskGroup { group in
            group.addTask { await mates.run() }
            await stop.wait()
            group.cancelAll()
        }
        await mates.leave()
        if madeForTheDemo, (try? await actions.leave()) != nil {
            print(
                "Stopped \(count) simulated member\(count == 1 ? "" : "s"); they and you left group \(code), made for the demo."
            )
        } else {
            print("Stopped \(count) simulated member\(count == 1 ? "" : "s"); they left the group.")
        }
        return stop.exitStatus ?? 0
    }

    /// The mates' names, in order: the 26 first names, then the same with 2, 3… after them.
    static func mateNames() -> some Sequence<String> {
        (1...).lazy.flatMap { round in names.lazy.map { round == 1 ? $0 : "\($0)\(round)" } }
    }
}
