import Foundation
import Glibc
import ScreenMatesStore

/// The directory that holds one person's data: the local database, the log and (later) the
/// config file. Created readable by its owner only (0700).
public struct HomeDirectory: Sendable, Hashable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `--home`, else `SCREENMATES_HOME`, else `$XDG_DATA_HOME/screenmates`, else
    /// `~/.local/share/screenmates`.
    ///
    /// A demo, or any run on a simulated clock (`--speed`, `--start-at`), that was not given a
    /// home explicitly uses the `demo` directory inside the default one: a clock running ahead
    /// would otherwise move the real days into the future.
    public static func resolve(option: String?, environment: [String: String], demo: Bool = false) throws(AppError)
        -> HomeDirectory
    {
        if let option {
            guard !option.isEmpty else { throw .usage("--home needs a directory path.") }
            return HomeDirectory(path: absolute(option))
        }
        if let value = environment["SCREENMATES_HOME"], !value.isEmpty {
            return HomeDirectory(path: absolute(value))
        }
        if demo {
            return HomeDirectory(path: try resolve(option: nil, environment: environment).path + "/demo")
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return HomeDirectory(path: xdg + "/screenmates")
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw AppError(
                "Cannot find a home for ScreenMates data: HOME is not set. Use --home DIR or SCREENMATES_HOME.")
        }
        return HomeDirectory(path: home + "/.local/share/screenmates")
    }

    public var databasePath: String { path + "/local.sqlite" }

    /// Opens the local database. `SCREENMATES_BUSY_TIMEOUT` (seconds) changes how long a write
    /// waits for another process's write before it reports the database as locked.
    public func openStore(environment: [String: String] = ProcessInfo.processInfo.environment) throws(StoreError)
        -> LocalStore
    {
        let timeout = environment["SCREENMATES_BUSY_TIMEOUT"].flatMap(Double.init).map { min(max($0, 0.01), 600) }
        return try LocalStore.open(at: databasePath, busyTimeout: timeout ?? LocalStore.busyTimeout)
    }
    public var logPath: String { path + "/screenmates.log" }

    /// The file that remembers the group store `setup` was pointed at (`--group-store` or
    /// `SCREENMATES_GROUP_STORE`), for a home in no group yet: a path, or a URL without its
    /// password. A group's own store, remembered with its membership, wins over it.
    public var namedGroupStorePath: String { path + "/group-store-location" }

    /// The group store `setup` was pointed at, if it was.
    public var namedGroupStore: String? {
        guard let data = FileManager.default.contents(atPath: namedGroupStorePath),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        return text
    }

    /// Remembers `store` (as `GroupStoreLocation.remembered` writes it) for the commands that
    /// follow setup: owner-only, whole or not at all.
    public func rememberGroupStore(_ store: String) throws(AppError) {
        try AtomicFile.write(Data((store + "\n").utf8), to: namedGroupStorePath)
    }
    public var databaseFileName: String { "local.sqlite" }

    /// Creates the directory (and missing parents) private to its owner (0700). An existing
    /// directory is never changed — it may be a shared one given by mistake (`--home /tmp`) —
    /// but one that others may read or enter is named in the returned warning, as ssh does.
    @discardableResult
    public func prepare() throws(AppError) -> String? {
        try refuseNonDirectory()
        if access(path, F_OK) != 0 { try create() }
        guard access(path, R_OK | X_OK) == 0 else {
            throw AppError(
                "The data directory \(path) cannot be read. Check its permissions, or choose another --home.")
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        return
            "The data directory \(path) is open to other users (mode \(mode)); the files ScreenMates creates in it are "
            + "private, but to keep the directory private too run `chmod 700 \(path)`, or choose another --home."
    }

    /// For every command that reads a home set up before (all but the dashboard and `setup`):
    /// a path that is not a directory, one that cannot be read, or one without ScreenMates data
    /// is named, with what to do.
    public func requireData() throws(AppError) {
        try refuseNonDirectory()
        if access(path, F_OK) == 0, access(path, R_OK | X_OK) != 0 {
            throw AppError(
                "The data directory \(path) cannot be read (\(String(cString: strerror(errno)))). Check its permissions, or choose another --home."
            )
        }
        guard access(databasePath, F_OK) == 0 else {
            throw AppError(
                "There is no ScreenMates data in \(path) yet. Run `screenmates setup --name NAME` (or `screenmates`) first, or give the --home you set up."
            )
        }
    }

    private func refuseNonDirectory() throws(AppError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return }
        throw AppError("\(path) exists but is not a directory. Move it away, or choose another --home.")
    }

    /// Creates the directory and its missing parents, each 0700, naming the one that failed.
    private func create() throws(AppError) {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            guard mkdir(current, 0o700) != 0 else { continue }
            let code = errno
            if code == EEXIST { continue }
            throw AppError(
                "Cannot create the data directory \(path): \(current) could not be made (\(String(cString: strerror(code)))). "
                    + "Check the permissions of its parent, or choose another --home.")
        }
    }

    private static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return expanded }
        return FileManager.default.currentDirectoryPath + "/" + expanded
    }
}
