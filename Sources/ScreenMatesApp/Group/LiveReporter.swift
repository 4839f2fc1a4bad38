import Foundation
import Glibc
import Logging
import ScreenMatesCore
import ScreenMatesStore

/// Reports a home's numbers to its group whenever the home's local store changes, without a
/// screen: what an open dashboard does for its group, for a home whose usage a monitor records
/// while no dashboard is open (`screenmates sync --watch`, and the demo's simulated members).
///
/// It runs the daily reset as the dashboard does, so finished days are archived and sent too;
/// the group link keeps the newest numbers while the store is away and sends them when it is
/// back, so nothing waits on this loop.
public struct LiveReporter: Sendable {
    let home: HomeDirectory
    let store: LocalStore
    let link: GroupLink
    /// The group's games (weeks, challenges, coins), exchanged whenever the numbers change.
    let games: GroupGamesLink
    let clock: any AppClock

    /// Longest sleep without a change: the day may end, and a change notice may be missed.
    static let wakeInterval: Int32 = 1000

    public init(
        home: HomeDirectory, store: LocalStore, location: GroupStoreLocation, membership: GroupMembership,
        userID: String, clock: any AppClock, logger: Logger
    ) {
        self.home = home
        self.store = store
        self.clock = clock
        link = GroupLink(
            local: store, location: location, membership: membership, userID: userID, clock: clock, logger: logger,
            wake: {})
        let dayStartHour = ((try? store.settings()) ?? nil)?.dayStartHour ?? 0
        games = GroupGamesLink(
            games: GroupGames(
                local: store, membership: membership, userID: userID, clock: clock,
                calendar: DayCalendar(timeZone: .current, dayStartHour: dayStartHour)),
            location: location, logger: logger, wake: {})
    }

    /// What the group has seen of this home: when it last reported, and the finished days not
    /// sent yet.
    public var status: GroupLink.Status { link.status }

    /// Reports until `stop` gives a status, returning within a second of it. Blocks its thread
    /// in `poll(2)`: run it on a thread of its own.
    public func run(until stop: @escaping @Sendable () -> Int32?) {
        guard let feed = try? UsageFeed(store: store, clock: clock, timeZone: { .current }),
            let watcher = DirectoryWatcher(directory: home.path, prefix: home.databaseFileName)
        else { return }
        link.start()
        games.start()
        defer {
            link.stop()
            games.stop()
        }
        var seen = ""
        while stop() == nil {
            if (try? feed.refresh(checkTimeZone: false)) != nil, let name = feed.settings.displayName {
                let now = "\(feed.eventsApplied) \(feed.today)"
                if now != seen {
                    seen = now
                    games.poke()
                }
                link.report(
                    ProfileDraft(
                        displayName: name, blocksToday: feed.ledger.viceBlocks, day: feed.today,
                        streak: feed.summary.streak.current, lastActive: feed.lastActive))
            }
            var descriptor = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Self.wakeInterval)
            _ = watcher.drain()
        }
    }

    /// Runs `run(until:)` on a thread of its own and returns when it has stopped.
    public func runInBackground(until stop: @escaping @Sendable () -> Int32?) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                run(until: stop)
                done.resume()
            }
        }
    }
}
