import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore

/// Creating, joining and leaving a group, showing it and syncing once: shared by the command
/// line and the setup and group screens. Each checks its input first and changes nothing when
/// anything is refused.
public struct GroupActions: Sendable {
    public let local: LocalStore
    public let location: GroupStoreLocation
    public let clock: any AppClock
    /// The zone the user's days are counted in.
    public let timeZone: TimeZoneSource

    public init(local: LocalStore, location: GroupStoreLocation, clock: any AppClock, timeZone: TimeZoneSource) {
        self.local = local
        self.location = location
        self.clock = clock
        self.timeZone = timeZone
    }

    /// The actions on the group of `home`, which has data, on the clock `speed` and `startAt`
    /// choose (or the one a running dashboard publishes), against the group store `groupStore`
    /// finds for it.
    public static func open(
        home: HomeDirectory, groupStore: GroupStoreChoice, speed: Double? = nil, startAt: Date? = nil,
        timeZone: TimeZoneSource
    ) throws(AppError) -> GroupActions {
        try home.requireData()
        let (store, clock, location) = try groupStore.open(
            home: home, speed: speed, startAt: startAt, timeZone: timeZone)
        return GroupActions(local: store, location: location, clock: clock, timeZone: timeZone)
    }

    /// The user's settings and group; nil without a profile or outside a group.
    public func membership() -> (settings: UserSettings, membership: GroupMembership)? {
        guard let settings = try? local.settings(), let membership = settings.group else { return nil }
        return (settings, membership)
    }

    /// Creates a group with the user as its first member.
    public func create(goal: Int) async throws(AppError) -> Group {
        guard UsageRules.dailyGoalRange.contains(goal) else {
            throw .usage("A group's daily goal is 1 to \(UsageRules.dailyGoalRange.upperBound) blocks; \(goal) is not.")
        }
        let (settings, draft) = try me()
        let version = try nextVersion()
        let store = try await open(creating: true)
        let group = try await store.closing { () throws(AppError) in
            let group: Group
            do throws(GroupStoreError) {
                let (creator, now) = (
                    draft.profile(userID: settings.userID, version: version, now: clock.now()), clock.now()
                )
                group = try await MachineWrites(local: local, userID: settings.userID).writing(to: store) {
                    machine throws(GroupStoreError) in
                    try await store.createGroup(dailyGoalBlocks: goal, creator: creator, machine: machine, now: now)
                }
            } catch {
                throw AppError(Self.failed("create a group", error))
            }
            // A member is in one group at a time: creating a group moves the user out of the old one.
            if let old = settings.group, old.code != group.code {
                try? await store.leave(code: old.code, userID: settings.userID)
            }
            return group
        }
        try remember(group)
        await syncIfReachable()
        return group
    }

    /// `join`, its failure said for the command line.
    public func joinForCommand(_ code: GroupCode) async throws(AppError) -> Group {
        do {
            return try await join(code)
        } catch {
            switch error {
            // The group refused (an unknown code, a name taken, too many wrong codes) or could not
            // be reached: the command line itself was right, so not 64.
            case .store(let storeError): throw AppError(storeError.message)
            case .app(let appError): throw appError
            }
        }
    }

    /// What a store that could not take a group action now (out of reach, busy) means for that
    /// action: it failed, and nothing was done. A report says "working offline; updates are
    /// kept", since its outbox sends them later; a join or a create is not kept, so it says so.
    static func failed(_ action: String, _ error: GroupStoreError) -> String {
        switch error {
        case .unavailable(let location, let detail):
            return "Could not \(action): the group store \(location) cannot be reached (\(detail)). Nothing was "
                + "changed; try again once it can be reached, or name the group's store with --group-store "
                + "(or SCREENMATES_GROUP_STORE)."
        case .busy(let location, let detail):
            return "Could not \(action): the group store \(location) is busy (\(detail)). Nothing was changed; "
                + "try again in a moment."
        default:
            return error.message
        }
    }

    /// Why an action on the group failed: the group store's own reason (a name taken, an unknown
    /// code…), or another problem.
    public enum Failure: Error, Sendable {
        case store(GroupStoreError)
        case app(AppError)

        public var message: String {
            switch self {
            case .store(let error): error.message
            case .app(let error): error.message
            }
        }
    }

    /// Joins the group with `code`, keeping the store's reason when it refuses.
    public func join(_ code: GroupCode) async throws(Failure) -> Group {
        let settings: UserSettings
        let draft: ProfileDraft
        let store: any GroupStore
        let version: Int64
        do {
            (settings, draft) = try me()
            version = try nextVersion()
        } catch {
            throw .app(error)
        }
        do {
            store = try await location.open()
        } catch {
            throw .app(AppError(Self.failed("join group \(code)", error)))
        }
        let group = try await store.closing { () throws(Failure) in
            let group: Group
            do throws(GroupStoreError) {
                let (member, now) = (
                    draft.profile(userID: settings.userID, version: version, now: clock.now()), clock.now()
                )
                group = try await MachineWrites(local: local, userID: settings.userID).writing(to: store) {
                    machine throws(GroupStoreError) in
                    try await store.join(code: code, member: member, machine: machine, now: now)
                }
            } catch {
                switch error {
                case .unavailable, .busy: throw .app(AppError(Self.failed("join group \(code)", error)))
                default: throw .store(error)
                }
            }
            if let old = settings.group, old.code != code {
                try? await store.leave(code: old.code, userID: settings.userID)
            }
            return group
        }
        do {
            try remember(group)
        } catch {
            throw .app(error)
        }
        await syncIfReachable()
        return group
    }

    /// Leaves the user's group.
    public func leave() async throws(AppError) -> GroupCode {
        let settings = try profile()
        guard let membership = settings.group else { throw AppError("You are not in a group.") }
        let store = try await open()
        try await store.closing { () throws(AppError) in
            do throws(GroupStoreError) {
                try await store.leave(code: membership.code, userID: settings.userID)
            } catch {
                throw AppError(error.message)
            }
        }
        do {
            try local.setGroup(nil)
        } catch {
            throw AppError(error)
        }
        return membership.code
    }

    /// The user's group as the store has it now, or the cached one (and `offline`) when the store
    /// cannot be reached.
    public func show() async throws(AppError) -> (snapshot: GroupSnapshot, offline: Bool) {
        do {
            return try await showExplained()
        } catch {
            throw AppError(error.message)
        }
    }

    /// `show`, keeping the store's reason when it fails: out of reach with nothing cached, or
    /// refused (a login the server refused…), which no cache stands in for.
    public func showExplained() async throws(Failure) -> (snapshot: GroupSnapshot, offline: Bool) {
        let settings: UserSettings
        do {
            settings = try profile()
        } catch {
            throw .app(error)
        }
        guard let membership = settings.group else {
            throw .app(
                AppError(
                    "You are not in a group. Create one with `screenmates group create` or join one with `screenmates group join CODE`."
                ))
        }
        let reporter = GroupReporter(local: local, membership: membership, userID: settings.userID, clock: clock)
        do throws(GroupStoreError) {
            let snapshot = try await location.using { store throws(GroupStoreError) in
                try await reporter.snapshot(from: store, today: today(settings))
            }
            reporter.cache(snapshot)
            return (snapshot, false)
        } catch {
            guard error.isTransient, let cached = try? local.groupCache(code: membership.code),
                let snapshot = GroupSnapshot.decoded(cached.snapshot)
            else { throw .store(error) }
            return (snapshot, true)
        }
    }

    /// Sends the profile and the finished days, and fetches the group, once. Returns what was
    /// done, or nil when the store could not be reached.
    ///
    /// With `archiving`, the finished days are archived first (the daily reset, exactly once
    /// whoever runs it), so a home that no dashboard has opened since sends them too: what
    /// `screenmates sync` asks for, with the group's games exchanged (`GroupGames`). Creating
    /// or joining a group does neither, so that it writes nothing dated to the home's past.
    @discardableResult
    public func syncIfReachable(archiving: Bool = false) async -> (days: Int, members: Int)? {
        try? await sync(archiving: archiving)
    }

    /// `syncIfReachable`, saying why when nothing could be done: the store out of reach, or a refusal
    /// to act on (a login the server refused…), or no group or profile here.
    public func sync(archiving: Bool = false) async throws(Failure) -> (days: Int, members: Int) {
        if archiving, let settings = try? local.settings() {
            let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour)
            _ = try? local.rollOver(
                clockDay: calendar.day(containing: clock.now()), calendar: calendar, now: clock.now())
        }
        let (settings, mine): (UserSettings, ProfileDraft)
        do {
            (settings, mine) = try me()
        } catch {
            throw .app(error)
        }
        guard let membership = settings.group else { throw .app(AppError("You are not in a group.")) }
        let reporter = GroupReporter(local: local, membership: membership, userID: settings.userID, clock: clock)
        // Never an earlier last-active time than the group last showed (another machine's).
        let cached = (try? local.groupCache(code: membership.code)).flatMap { GroupSnapshot.decoded($0.snapshot) }
        let draft = reporter.lastActiveOfTheMember(mine, in: cached)
        do throws(GroupStoreError) {
            return try await location.using { store throws(GroupStoreError) in
                // A group the store cannot write now (`.busy`) is still read and cached; the
                // writes wait for the next sync, and the busy store is the answer.
                var waiting: GroupStoreError?
                var days = 0
                do throws(GroupStoreError) {
                    try await reporter.send(draft, to: store)
                    days = try await reporter.sendDays(to: store)
                } catch {
                    guard case .busy = error else { throw error }
                    waiting = error
                }
                let snapshot = try await reporter.snapshot(from: store, today: draft.day)
                reporter.cache(snapshot)
                // The group's games too (with `sync` only: they book coins and badges now): weeks
                // settled and booked, challenges and coins reported.
                let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour)
                if archiving {
                    let games = GroupGames(
                        local: local, membership: membership, userID: settings.userID, clock: clock, calendar: calendar)
                    if waiting == nil {
                        waiting = (try? await games.exchange(with: store))?.waiting
                    } else {
                        _ = try? await games.fetch(from: store)
                    }
                    // The challenges open to all the user joined: their parts told too.
                    if waiting == nil,
                        let open = OpenChallenges.joined(
                            local: local, settings: settings, clock: clock, calendar: calendar)
                    {
                        _ = try? await open.exchange(with: store)
                    }
                }
                if let waiting { throw waiting }
                return (days, snapshot.members.count)
            }
        } catch {
            throw .store(error)
        }
    }

    /// What `screenmates sync` does once: `sync(archiving: true)`, its failure said for the
    /// command line. Out of reach, or busy (a group someone's open transaction holds: read, not
    /// written), is exit status 1 (the numbers are kept and sent next time);
    /// anything else (a login the server refused…) is 70, said as what it is for someone to fix.
    public func syncForCommand() async throws(AppError) -> (days: Int, members: Int) {
        do throws(Failure) {
            return try await sync(archiving: true)
        } catch {
            guard case .store(let storeError) = error, storeError.isTransient else {
                throw AppError(error.message, exitStatus: 70)
            }
            if case .busy = storeError {
                throw AppError(
                    storeError.message
                        + " The group was read as it stands; `screenmates sync` again sends your numbers.")
            }
            throw AppError(storeError.message + " Your numbers are kept and will be sent next time.")
        }
    }

    /// Changes the settlement rules of the user's group to what `change` makes of the ones set
    /// last; returns them as set, and the first day of the week their rates take effect from
    /// (nil: at once, the user being the group's only member). Any member may.
    public func changeSettlementRules(_ change: (SettlementRules) throws(AppError) -> SettlementRules)
        async throws(AppError) -> (rules: SettlementRules, from: LocalDate?)
    {
        guard let (settings, membership) = membership() else { throw AppError("You are not in a group.") }
        do {
            let store = try await location.open()
            return try await store.closing {
                let rules = try change(try await store.settlementRules(code: membership.code).latest)
                let from = try await store.setSettlementRules(
                    rules, code: membership.code, userID: settings.userID, now: clock.now())
                return (rules, from)
            }
        } catch let error as GroupStoreError {
            throw AppError(error.message)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError("\(error)")
        }
    }

    // MARK: -

    private func profile() throws(AppError) -> UserSettings {
        do {
            guard let settings = try local.settings() else {
                throw AppError("There is no profile yet. Run `screenmates setup --name NAME` first.")
            }
            return settings
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(error)
        }
    }

    /// The settings and the profile the user would share now.
    private func me() throws(AppError) -> (UserSettings, ProfileDraft) {
        let settings = try profile()
        guard let name = settings.displayName else {
            throw AppError("Choose a display name first: `screenmates setup --name NAME`.")
        }
        do {
            let feed = try FiguresReader(store: local, clock: clock, timeZone: timeZone, writes: false)
            return (
                settings,
                ProfileDraft(
                    displayName: name, blocksToday: feed.ledger.viceBlocks, day: feed.today,
                    streak: feed.summary.streak.current, lastActive: feed.lastActive,
                    productiveToday: feed.ledger.productiveBlocks)
            )
        } catch {
            throw AppError(error)
        }
    }

    private func today(_ settings: UserSettings) -> LocalDate {
        DayCalendar(timeZone: timeZone.current(), dayStartHour: settings.dayStartHour).day(containing: clock.now())
    }

    private func open(creating: Bool = false) async throws(AppError) -> any GroupStore {
        do {
            return try await location.open(creating: creating)
        } catch {
            throw AppError(error.message)
        }
    }

    private func nextVersion() throws(AppError) -> Int64 {
        do {
            return try local.nextMemberVersion()
        } catch {
            throw AppError(error)
        }
    }

    private func remember(_ group: Group) throws(AppError) {
        do {
            // The store goes with the membership, so commands run later without --group-store find
            // the group where it was joined; without any password, which they take from
            // PGPASSWORD or ~/.pgpass.
            try local.setGroup(
                GroupMembership(code: group.code, dailyGoalBlocks: group.dailyGoalBlocks, store: location.remembered))
        } catch {
            throw AppError(error)
        }
    }
}
