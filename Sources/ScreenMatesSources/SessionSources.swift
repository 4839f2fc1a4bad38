import Foundation

/// The desktops a session runs, in the order `--source auto` tries them: those whose variable
/// is set (`$SWAYSOCK`, `$HYPRLAND_INSTANCE_SIGNATURE`, `$DISPLAY`; GNOME and KDE Plasma where the
/// session names them and has a session bus), the one the session names
/// first (`$XDG_CURRENT_DESKTOP`), then the kind it is (`$WAYLAND_DISPLAY` set: Wayland).
///
/// In a Wayland session X11 is never a candidate: there it sees only Xwayland's windows, and
/// following it would miss every other one.
public struct SessionSources: Sendable {
    /// One desktop `auto` may follow.
    public struct Candidate: Sendable {
        /// Its `--source` name (`sway`, `hyprland`, `x11`).
        public let name: String
        public let make: @Sendable () throws(FocusProbeError) -> any FocusProbe
    }

    public let desktops: [Candidate]
    /// Why a desktop is not among them, for the message when none answers.
    public let notes: [String]

    /// `gnomeExtensions`: where ScreenMates' GNOME Shell extension is (for the message when it is
    /// not running); `kwinScript`: the script a KDE Plasma source loads into KWin.
    public init(
        environment: [String: String], idleTimeout: TimeInterval, gnomeExtensions: String? = nil,
        kwinScript: String? = nil
    ) {
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        let named = Set(
            (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":").map(String.init))
        let wayland = isSet("WAYLAND_DISPLAY")
        var ranked: [(rank: Int, candidate: Candidate)] = []
        var notes: [String] = []
        if isSet("SWAYSOCK") {
            ranked.append(
                (
                    named.contains("sway") ? 0 : wayland ? 1 : 2,
                    Candidate(name: "sway") { () throws(FocusProbeError) -> any FocusProbe in
                        try SwayProbe(idleTimeout: idleTimeout, environment: environment)
                    }
                ))
        }
        if isSet("HYPRLAND_INSTANCE_SIGNATURE") {
            ranked.append(
                (
                    named.contains("hyprland") ? 0 : wayland ? 1 : 2,
                    Candidate(name: "hyprland") { () throws(FocusProbeError) -> any FocusProbe in
                        try HyprlandProbe(idleTimeout: idleTimeout, environment: environment)
                    }
                ))
        }
        if named.contains("gnome"), isSet("DBUS_SESSION_BUS_ADDRESS") {
            ranked.append(
                (
                    0,
                    Candidate(name: "gnome") { () throws(FocusProbeError) -> any FocusProbe in
                        try GnomeProbe(environment: environment, extensionDirectory: gnomeExtensions)
                    }
                ))
        }
        if named.contains("kde"), isSet("DBUS_SESSION_BUS_ADDRESS"), let kwinScript {
            ranked.append(
                (
                    0,
                    Candidate(name: "kde") { () throws(FocusProbeError) -> any FocusProbe in
                        try KWinProbe(script: kwinScript, idleTimeout: idleTimeout, environment: environment)
                    }
                ))
        }
        if wayland {
            if ranked.isEmpty {
                notes.append(
                    "this is a Wayland session (WAYLAND_DISPLAY is set) of a compositor ScreenMates cannot read "
                        + "(it reads sway, Hyprland, GNOME and KDE Plasma), and X11 there sees only Xwayland's windows")
            }
        } else if let display = environment["DISPLAY"], !display.isEmpty {
            ranked.append(
                (
                    1,
                    Candidate(name: "x11") { () throws(FocusProbeError) -> any FocusProbe in
                        try X11Probe(display: display)
                    }
                ))
        }
        if ranked.isEmpty, !wayland {
            notes.append("DISPLAY is not set (no X11 desktop), nor SWAYSOCK or HYPRLAND_INSTANCE_SIGNATURE")
        }
        // A stable sort: equal ranks keep sway, Hyprland, GNOME, KDE, X11.
        desktops = ranked.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element.candidate)
        self.notes = notes
    }

    /// The first desktop that answers, made, with its index; else what each said.
    public func firstAnswering(before limit: Int? = nil) -> (index: Int, probe: any FocusProbe)? {
        for (index, candidate) in desktops.enumerated().prefix(limit ?? desktops.count) {
            if let probe = try? candidate.make() { return (index, probe) }
        }
        return nil
    }

    /// What each desktop says when it is made now (for the message when none answers).
    public func reasons() -> [String] {
        desktops.compactMap { candidate -> String? in
            do throws(FocusProbeError) {
                _ = try candidate.make()
                return nil
            } catch {
                return error.message
            }
        } + notes
    }
}
