import Foundation
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesUI

/// The catalogue of common apps, with the suggested lists for a new user.
public struct AppCatalogue: Sendable, Hashable {
    public var apps: [TrackedApp]
    public var defaultVice: [TrackedApp]
    public var defaultProductive: [TrackedApp]
    /// How each catalogue app shows up on a desktop (reported names, site title words, browsers).
    public var desktopRules: [DesktopAppRule]

    public init(
        apps: [TrackedApp], defaultVice: [TrackedApp], defaultProductive: [TrackedApp],
        desktopRules: [DesktopAppRule] = []
    ) {
        self.apps = apps
        self.defaultVice = defaultVice
        self.defaultProductive = defaultProductive
        self.desktopRules = desktopRules
    }

    /// Finds an app by id or by name, ignoring case.
    public func find(_ text: String) -> TrackedApp? {
        let key = text.lowercased()
        return apps.first { $0.id == key || $0.name.lowercased() == key }
    }
}

/// What the program reads at run time that is not code, in `assets/`: the app catalogue,
/// colour themes and usage profiles for the simulated monitor.
///
/// Found, from the first place that holds an `apps.json`: `SCREENMATES_ASSETS`; next to the
/// executable (`../share/screenmates/assets`, as an installation from source puts them, or
/// `../share/screenmates`, as the package does; else a parent directory's `assets`, a build inside
/// the source tree); the user's own (`$XDG_DATA_HOME/screenmates/assets`, else
/// `~/.local/share/screenmates/assets`); the system's (`/usr/share/screenmates`).
public struct AssetCatalog: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public static func locate(environment: [String: String]) throws(AppError) -> AssetCatalog {
        if let value = environment["SCREENMATES_ASSETS"], !value.isEmpty {
            guard FileManager.default.fileExists(atPath: value + "/apps.json") else {
                throw AppError("SCREENMATES_ASSETS is \(value), but there is no apps.json in it.")
            }
            return AssetCatalog(directory: value)
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        for candidate in candidates(executable: executable, environment: environment)
        where FileManager.default.fileExists(atPath: candidate + "/apps.json") {
            return AssetCatalog(directory: (candidate as NSString).standardizingPath)
        }
        throw AppError(
            "Cannot find the assets directory (apps.json, themes, scenarios) next to \(executable), in "
                + "~/.local/share/screenmates/assets or in /usr/share/screenmates. "
                + "Install them there, or set SCREENMATES_ASSETS to the assets folder.")
    }

    /// Where the assets may be, after `SCREENMATES_ASSETS`, first place first.
    public static func candidates(executable: String, environment: [String: String]) -> [String] {
        var directory = (executable as NSString).deletingLastPathComponent
        var places = [directory + "/../share/screenmates/assets", directory + "/../share/screenmates"]
        for _ in 0..<8 {
            places.append((directory as NSString).appendingPathComponent("assets"))
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory { break }
            directory = parent
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            places.append(data + "/screenmates/assets")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            places.append(home + "/.local/share/screenmates/assets")
        }
        places.append("/usr/share/screenmates")
        return places
    }

    public func appCatalogue() throws(AppError) -> AppCatalogue {
        struct Entry: Decodable {
            var id: String
            var name: String
            var bundleID: String
            var category: AppCategory
            /// Names desktop usage sources report for the app.
            var names: [String]?
            /// Title words that place a browser window on the app (a site).
            var titles: [String]?
            var browser: Bool?
        }
        struct File: Decodable {
            var apps: [Entry]
            var defaults: [String: [String]]
        }
        let file: File = try decode("apps.json")
        let apps = file.apps.map { TrackedApp(id: $0.id, name: $0.name, bundleID: $0.bundleID, category: $0.category) }
        let byID = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func defaults(_ key: String, _ category: AppCategory) -> [TrackedApp] {
            (file.defaults[key] ?? []).compactMap { byID[$0] }.map {
                var app = $0
                app.category = category
                return app
            }
        }
        let rules = file.apps.map {
            DesktopAppRule(id: $0.id, names: $0.names ?? [], titles: $0.titles ?? [], browser: $0.browser ?? false)
        }
        return AppCatalogue(
            apps: apps, defaultVice: defaults("vice", .vice), defaultProductive: defaults("productive", .productive),
            desktopRules: rules)
    }

    /// The theme `themes/NAME.json`.
    public func theme(named name: String) throws(AppError) -> Theme {
        let available = themeNames()
        guard available.contains(name) else {
            throw .usage("There is no theme \"\(name)\". Themes: \(available.joined(separator: ", ")).")
        }
        do {
            return try Theme.parse(try read("themes/\(name).json"), name: name)
        } catch let error as ThemeError {
            throw AppError(error.message)
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError(String(describing: error))
        }
    }

    public func themeNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/themes")) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// A scenario for the simulated monitor — a usage profile or a scripted day: `NAME` from
    /// `scenarios/NAME.json`, or a path to a JSON file.
    public func scenario(_ nameOrPath: String) throws(AppError) -> UsageScenario {
        let isPath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        let path = isPath ? nameOrPath : directory + "/scenarios/\(nameOrPath).json"
        guard let data = FileManager.default.contents(atPath: path) else {
            if isPath { throw .usage("Cannot read the scenario file \(nameOrPath).") }
            throw .usage(
                "There is no scenario \"\(nameOrPath)\". Scenarios: \(scenarioNames().joined(separator: ", ")), "
                    + "or give the path of a JSON file.")
        }
        do {
            return try UsageScenario.parse(data, source: path)
        } catch {
            throw .usage(error.message)
        }
    }

    public func scenarioNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/scenarios")) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    private func read(_ relative: String) throws(AppError) -> Data {
        guard let data = FileManager.default.contents(atPath: directory + "/" + relative) else {
            throw AppError("Cannot read \(directory)/\(relative). Is the assets directory complete?")
        }
        return data
    }

    private func decode<T: Decodable>(_ relative: String) throws(AppError) -> T {
        let data = try read(relative)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw AppError("\(directory)/\(relative) is malformed: \(error).")
        }
    }
}
