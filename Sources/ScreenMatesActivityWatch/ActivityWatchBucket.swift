import Foundation

/// A bucket as ActivityWatch lists it (`GET /api/0/buckets/`).
public struct ActivityWatchBucket: Hashable, Sendable {
    public var id: String
    /// `currentwindow` for window watchers, `afkstatus` for the AFK watcher.
    public var type: String
    public var hostname: String
    public var created: Date?
    public var lastUpdated: Date?

    public init(id: String, type: String, hostname: String, created: Date? = nil, lastUpdated: Date? = nil) {
        self.id = id
        self.type = type
        self.hostname = hostname
        self.created = created
        self.lastUpdated = lastUpdated
    }

    public static let windowType = "currentwindow"
    public static let afkType = "afkstatus"
}

/// The buckets ScreenMates reads for one machine: where the focused window is recorded, and
/// where the user's presence is (when an AFK watcher runs there).
///
/// Buckets are chosen by their type and host, not by their id, so a watcher that names its
/// bucket differently (`aw-watcher-window-wayland_…`) or a renamed bucket is still found.
public struct ActivityWatchSelection: Hashable, Sendable {
    public var host: String
    public var window: ActivityWatchBucket
    public var afk: ActivityWatchBucket?

    public init(host: String, window: ActivityWatchBucket, afk: ActivityWatchBucket?) {
        self.host = host
        self.window = window
        self.afk = afk
    }

    /// Picks the buckets for `host`, or — without one — for this machine's name, or for the
    /// only host that has a window bucket.
    public static func choose(
        from buckets: [ActivityWatchBucket], host: String?, localHost: String, url: String
    ) throws(ActivityWatchError) -> ActivityWatchSelection {
        let windows = buckets.filter { $0.type == ActivityWatchBucket.windowType }
        let hosts = Array(Set(windows.map(\.hostname))).sorted()
        let chosen: String
        if let host {
            guard hosts.contains(host) else { throw .noWindowBucket(url: url, host: host, hosts: hosts) }
            chosen = host
        } else if hosts.contains(localHost) {
            chosen = localHost
        } else if hosts.count == 1 {
            chosen = hosts[0]
        } else {
            throw hosts.isEmpty
                ? .noWindowBucket(url: url, host: nil, hosts: []) : .severalHosts(url: url, hosts: hosts)
        }
        // The most recently updated of a host's buckets of each kind (two window watchers on
        // one host would report the same time twice).
        func newest(_ type: String) -> ActivityWatchBucket? {
            buckets.filter { $0.type == type && $0.hostname == chosen }
                .max { ($0.lastUpdated ?? .distantPast, $1.id) < ($1.lastUpdated ?? .distantPast, $0.id) }
        }
        guard let window = newest(ActivityWatchBucket.windowType) else {
            throw .noWindowBucket(url: url, host: chosen, hosts: hosts)
        }
        return ActivityWatchSelection(host: chosen, window: window, afk: newest(ActivityWatchBucket.afkType))
    }
}
