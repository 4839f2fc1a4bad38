import Foundation
import Glibc
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesStore
import ScreenMatesWatch

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
    /// The group, and its games (weeks, challenges, coins), exchanged whenever the numbers change.
    let link: GroupLink
    let clock: any AppClock
    let timeZone: TimeZoneSource

    /// Longest sleep without a change: the day may end, and a change notice may be missed.
    static let wakeInterval: Int32 = 1000

    public init(
        home: HomeDirectory, store: LocalStore, location: GroupStoreLocation, membership: GroupMembership,
        userID: UserID, clock: any AppClock, timeZone: TimeZoneSource, logger: Logger
    ) {
        self.home = home
        self.store = store
        self.clock = clock
        self.timeZone = timeZone
        link = GroupLink(
            local: store, location: location, membership: membership, userID: userID, clock: clock,
            timeZone: timeZone, logger: logger, onChange: { _ in })
    }

    /// What the group has seen of this home: when it last reported, and the finished days not
    /// sent yet.
    public var status: GroupLink.Status { link.status }

    /// Reports until `stop` is requested or the task is cancelled (either wakes the watch at
    /// once), returning once the group link has stopped too. The home is watched on a thread of
    /// its own (it sleeps in `poll`), which this call owns and joins.
    public func run(stop: StopRequest) async {
        let cancelled = WakePipe()
        await withDiscardingTaskGroup { tasks in
            tasks.addTask { await link.run() }
            let watch = OwnedThread(name: "home watch") { watchHome(stop: stop, cancelled: cancelled) }
            await withTaskCancellationHandler {
                await watch.join()
            } onCancel: {
                cancelled.wake()
            }
            link.stop()
        }
    }

    /// Reads the home's numbers whenever its database changes, and hands them to the link, until
    /// `stop` is requested or `cancelled` is woken.
    private func watchHome(stop: StopRequest, cancelled: WakePipe) {
        guard let feed = try? FiguresReader(store: store, clock: clock, timeZone: timeZone),
            let watcher = FileNotices(directory: home.path, prefix: home.databaseFileName)
        else { return }
        var seen = ""
        var descriptors = [
            pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: cancelled.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while stop.exitStatus == nil, descriptors[1].revents == 0 {
            if (try? feed.read(checkTimeZone: false)) != nil, let name = feed.settings.displayName {
                let now = "\(feed.eventsApplied) \(feed.today)"
                if now != seen {
                    seen = now
                    link.poke()
                }
                link.report(
                    ProfileDraft(
                        displayName: name, blocksToday: feed.ledger.viceBlocks, day: feed.today,
                        streak: feed.summary.streak.current, lastActive: feed.lastActive,
                        productiveToday: feed.ledger.productiveBlocks))
            }
            // The day may end while nothing is written: a look at least every second.
            _ = poll(&descriptors, 3, Self.wakeInterval)
            _ = watcher.drain()
        }
    }
}
