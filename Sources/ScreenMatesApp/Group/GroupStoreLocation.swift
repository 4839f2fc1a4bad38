import Foundation
import ScreenMatesGroupStore

/// Where the group store is: a SQLite file shared on this host, or a PostgreSQL server.
///
/// `--group-store`, else `SCREENMATES_GROUP_STORE`, else `group-store.sqlite` in the home
/// directory. Several people on one host share a group by pointing at one file.
public enum GroupStoreLocation: Hashable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    public static func resolve(option: String?, environment: [String: String], home: HomeDirectory) throws(AppError)
        -> GroupStoreLocation
    {
        let text = option ?? environment["SCREENMATES_GROUP_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text else { return .sqlite(path: home.path + "/group-store.sqlite") }
        guard !text.isEmpty else { throw .usage("--group-store needs a file path or a postgres:// URL.") }
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") { return .postgres(url: text) }
        if lower.contains("://") {
            throw .usage("The group store \"\(text)\" is neither a file path nor a postgres:// URL.")
        }
        let expanded = (text as NSString).expandingTildeInPath
        return .sqlite(
            path: expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded)
    }

    /// Opens the store. Only creating a group makes a new store file; otherwise a missing file
    /// is a store that cannot be reached (a shared disk not mounted, a path mistyped).
    public func open(creating: Bool = false) throws(GroupStoreError) -> any GroupStore {
        switch self {
        case .sqlite(let path):
            if !creating && !FileManager.default.fileExists(atPath: path) {
                throw .unavailable(location: path, detail: "there is no group store file there")
            }
            let timeout = ProcessInfo.processInfo.environment["SCREENMATES_GROUP_BUSY_TIMEOUT"].flatMap(Double.init)
            return try SQLiteGroupStore.open(at: path, busyTimeout: min(max(timeout ?? 5, 0.01), 600))
        case .postgres:
            throw .unusable(
                location: description,
                detail: "this version of ScreenMates keeps groups in a shared SQLite file only; give a file path")
        }
    }

    /// For messages: the path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): Self.withoutPassword(url)
        }
    }

    static func withoutPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "…"
        return components.string ?? url
    }
}
