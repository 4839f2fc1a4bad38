import Foundation
import ScreenMatesCore

/// Places what a usage source saw — an application name and a window title — on one of the
/// user's tracked apps, or on none.
///
/// The order is fixed: a browser window whose title carries a tracked site's words is that site
/// (YouTube in Firefox counts as YouTube, not Firefox); otherwise a tracked app whose desktop
/// names include the reported name; otherwise a tracked app whose own name or id is the
/// reported name (apps the user typed in). Case never matters, and a Windows `.exe` suffix is
/// ignored. What matches nothing is `unplaced`, under its reported name.
public struct AppMatcher: Sendable {
    public enum Match: Hashable, Sendable {
        case tracked(TrackedApp)
        case unplaced(String)
    }

    public let apps: [TrackedApp]
    private let byName: [String: Int]
    private let sites: [(index: Int, fragments: [String])]
    private let browsers: Set<String>

    /// - Parameters:
    ///   - apps: the user's tracked apps, in the order of their lists (the first wins a tie).
    ///   - rules: the catalogue's desktop rules, for every catalogue app (browsers the user does
    ///     not track still decide which windows are searched for sites).
    public init(apps: [TrackedApp], rules: [DesktopAppRule]) {
        self.apps = apps
        let rulesByID = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var byName: [String: Int] = [:]
        var sites: [(Int, [String])] = []
        for (index, app) in apps.enumerated() {
            let rule = rulesByID[app.id]
            for name in (rule?.names ?? []) + [app.name, app.id] {
                let key = Self.normalized(name)
                if !key.isEmpty, byName[key] == nil { byName[key] = index }
            }
            let fragments = (rule?.titles ?? []).map { $0.lowercased() }.filter { !$0.isEmpty }
            if !fragments.isEmpty { sites.append((index, fragments)) }
        }
        self.byName = byName
        self.sites = sites
        browsers = Set(rules.filter(\.browser).flatMap { $0.names + [$0.id] }.map(Self.normalized))
    }

    public func match(app: String, title: String) -> Match {
        let key = Self.normalized(app)
        if browsers.contains(key), !title.isEmpty {
            let lowered = title.lowercased()
            for site in sites where site.fragments.contains(where: { lowered.contains($0) }) {
                return .tracked(apps[site.index])
            }
        }
        if let index = byName[key] { return .tracked(apps[index]) }
        return .unplaced(app)
    }

    /// Lower case, without surrounding spaces or a Windows `.exe` suffix.
    static func normalized(_ name: String) -> String {
        var key = name.trimmingCharacters(in: .whitespaces).lowercased()
        if key.hasSuffix(".exe") { key.removeLast(4) }
        return key
    }
}
