import Foundation
import ScreenMatesCore

/// Why ActivityWatch could not be read, with what to do about it.
public enum ActivityWatchError: Error, Hashable, Sendable {
    /// Nothing answered at the URL (not running, wrong port), or it took too long.
    case unreachable(url: String, detail: String)
    /// Something answered, but not as ActivityWatch does.
    case badReply(url: String, detail: String)
    /// A bucket went away between listing and reading (deleted, renamed, a server restarted).
    case bucketGone(url: String, bucket: String)
    case noWindowBucket(url: String, host: String?, hosts: [String])
    case severalHosts(url: String, hosts: [String])
    case badURL(String)

    public var message: String {
        switch self {
        case .unreachable(let url, let detail):
            return "ActivityWatch does not answer at \(url) (\(detail)). Start it (aw-qt, or aw-server), "
                + "or give its address with --url (its testing port is 5666)."
        case .badReply(let url, let detail):
            return "\(url) answered, but not as ActivityWatch does (\(detail)). Is --url the ActivityWatch server?"
        case .bucketGone(let url, let bucket):
            return "The ActivityWatch bucket \(SafeText.displayable(bucket)) at \(url) is gone (deleted, renamed, "
                + "or the server restarted); looking for the buckets again."
        case .noWindowBucket(let url, let host, let hosts):
            let others = hosts.isEmpty ? "none has one" : "hosts with one: " + Self.list(hosts)
            if let host {
                return "ActivityWatch at \(url) has no window bucket for the host \(SafeText.displayable(host)) "
                    + "(\(others)). Give one of them with --host."
            }
            return "ActivityWatch at \(url) has no window bucket yet (\(others)): is aw-watcher-window "
                + "(or aw-watcher-window-wayland) running?"
        case .severalHosts(let url, let hosts):
            return "ActivityWatch at \(url) holds the windows of several hosts (\(Self.list(hosts))) and none "
                + "is this machine: choose one with --host."
        case .badURL(let text):
            return "\"\(SafeText.displayable(text))\" is not an http:// URL such as http://127.0.0.1:5600."
        }
    }

    public var isUsageError: Bool {
        switch self {
        case .noWindowBucket(_, let host, _): host != nil
        case .severalHosts, .badURL: true
        default: false
        }
    }

    private static func list(_ hosts: [String]) -> String {
        hosts.map { SafeText.displayable($0) }.joined(separator: ", ")
    }
}
