import ScreenMatesCore
import ScreenMatesMonitor
import Testing

/// Desktop application names and window titles to the user's tracked apps.
@Suite struct AppMatcherTests {
    static let rules = [
        DesktopAppRule(id: "firefox", names: ["firefox", "firefox-esr"], browser: true),
        DesktopAppRule(id: "chrome", names: ["google-chrome"], browser: true),
        DesktopAppRule(id: "youtube", titles: ["YouTube"]),
        DesktopAppRule(id: "reddit", titles: ["Reddit"]),
        DesktopAppRule(id: "vscode", names: ["Code", "code-oss"]),
        DesktopAppRule(id: "files", names: ["org.gnome.Nautilus"]),
    ]
    static let youtube = TrackedApp(id: "youtube", name: "YouTube", bundleID: "y", category: .vice)
    static let firefox = TrackedApp(id: "firefox", name: "Firefox", bundleID: "f", category: .vice)
    static let code = TrackedApp(id: "vscode", name: "Visual Studio Code", bundleID: "c", category: .productive)
    static let files = TrackedApp(id: "files", name: "Files", bundleID: "n", category: .productive)
    static let gnucash = TrackedApp(id: "custom-gnucash", name: "GnuCash", bundleID: "custom", category: .productive)
    let matcher = AppMatcher(apps: [youtube, firefox, code, files, gnucash], rules: rules)

    @Test func aSiteInsideABrowserWinsOverTheBrowser() {
        #expect(matcher.match(app: "firefox", title: "Cats - YouTube — Mozilla Firefox") == .tracked(Self.youtube))
        #expect(matcher.match(app: "Firefox-ESR", title: "youtube.com") == .tracked(Self.youtube))
        // An untracked browser is searched for sites too.
        #expect(matcher.match(app: "google-chrome", title: "YouTube - Google Chrome") == .tracked(Self.youtube))
        // A page of no tracked site is the browser itself.
        #expect(matcher.match(app: "firefox", title: "Bank — Mozilla Firefox") == .tracked(Self.firefox))
        // An untracked site (Reddit) in an untracked browser is unplaced.
        #expect(matcher.match(app: "google-chrome", title: "r/swift - Reddit") == .unplaced("google-chrome"))
    }

    @Test func titlesPlaceOnlyBrowserWindows() {
        // An editor with "YouTube" in its title is the editor.
        #expect(matcher.match(app: "Code", title: "youtube-dl.py — Visual Studio Code") == .tracked(Self.code))
    }

    @Test func reportedNamesMatchIgnoringCaseAndAWindowsSuffix() {
        #expect(matcher.match(app: "code", title: "") == .tracked(Self.code))
        #expect(matcher.match(app: "Code.exe", title: "") == .tracked(Self.code))
        #expect(matcher.match(app: "org.gnome.Nautilus", title: "Home") == .tracked(Self.files))
    }

    @Test func anAppTheUserTypedMatchesTheReportedNameIgnoringCase() {
        #expect(matcher.match(app: "gnucash", title: "Books") == .tracked(Self.gnucash))
        #expect(matcher.match(app: "GNUCASH", title: "") == .tracked(Self.gnucash))
        #expect(matcher.match(app: "gnucash-beta", title: "") == .unplaced("gnucash-beta"))
    }

    @Test func whatMatchesNothingIsUnplacedUnderItsReportedName() {
        #expect(matcher.match(app: "Slack", title: "general") == .unplaced("Slack"))
        #expect(matcher.match(app: "", title: "YouTube") == .unplaced(""))
    }
}
