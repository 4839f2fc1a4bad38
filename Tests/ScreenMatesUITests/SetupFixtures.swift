import ScreenMatesCore
import ScreenMatesUI

/// Fixed inputs for the first-run flow and the group screen: the app catalogue (the same apps
/// as `assets/apps.json`, written out so that a change to the asset does not move the goldens)
/// and flows driven to each step by pressing keys, the way a user gets there.
enum SetupFixtures {
    static let catalogue: [TrackedApp] = {
        let vice = [
            ("tiktok", "TikTok"), ("instagram", "Instagram"), ("youtube", "YouTube"), ("reddit", "Reddit"),
            ("x", "X"), ("facebook", "Facebook"), ("snapchat", "Snapchat"), ("netflix", "Netflix"),
            ("twitch", "Twitch"), ("pinterest", "Pinterest"), ("candycrush", "Candy Crush"), ("tinder", "Tinder"),
            ("threads", "Threads"),
        ]
        let productive = [
            ("duolingo", "Duolingo"), ("kindle", "Kindle"), ("notion", "Notion"), ("anki", "AnkiMobile"),
            ("khan", "Khan Academy"), ("coursera", "Coursera"), ("headspace", "Headspace"), ("todoist", "Todoist"),
            ("obsidian", "Obsidian"), ("github", "GitHub"), ("strava", "Strava"), ("libby", "Libby"),
        ]
        return vice.map { TrackedApp(id: $0.0, name: $0.1, bundleID: "com.example.\($0.0)", category: .vice) }
            + productive.map {
                TrackedApp(id: $0.0, name: $0.1, bundleID: "com.example.\($0.0)", category: .productive)
            }
    }()

    static func app(_ id: String) -> TrackedApp { catalogue.first { $0.id == id }! }

    /// A fresh flow: nothing tracked yet, no name.
    static func fresh() -> SetupFlow { SetupFlow(catalogue: catalogue, current: [], name: nil) }

    static func keys(_ text: String) -> [KeyInput] { text.map { KeyInput.character($0) } }

    /// Applies `keys` in order and returns the effects they asked for.
    @discardableResult
    static func press(_ keys: [KeyInput], on flow: inout SetupFlow) -> [DashboardRequest?] {
        keys.map { flow.handle($0) }
    }

    @discardableResult
    static func press(_ keys: [KeyInput], on model: inout ScreensModel) -> [DashboardRequest?] {
        keys.map { model.handle($0) }
    }

    /// The apps step with TikTok and YouTube picked, Notion picked below them, and the cursor
    /// on Reddit.
    static func appsPicked() -> SetupFlow {
        var flow = fresh()
        press([.character(" "), .down, .down, .character(" "), .down], on: &flow)
        let notion = flow.choices.firstIndex { $0.app.id == "notion" }!
        flow.choices[notion].picked = true
        return flow
    }

    /// The name step, reached from `appsPicked`, with `typed` in the field.
    static func nameStep(typed: String = "") -> SetupFlow {
        var flow = appsPicked()
        press([.enter] + keys(typed), on: &flow)
        return flow
    }

    /// The group step, reached with the name `ada_l`.
    static func groupStep() -> SetupFlow {
        var flow = nameStep(typed: "ada_l")
        press([.enter], on: &flow)
        return flow
    }

    /// The code step with `typed` in the field.
    static func codeStep(typed: String = "") -> SetupFlow {
        var flow = groupStep()
        press([.down, .enter] + keys(typed), on: &flow)
        return flow
    }

    /// A model on the setup screen holding `flow`.
    static func model(_ flow: SetupFlow, width: Int, height: Int) -> ScreensModel {
        var model = ScreensModel(screen: .dashboard, width: width, height: height)
        model.beginSetup(flow)
        return model
    }

    /// A model on the group screen.
    static func groupScreen(_ data: DashboardContent?, width: Int, height: Int) -> ScreensModel {
        var model = ScreensModel(screen: .dashboard, width: width, height: height, data: data)
        _ = model.handle(.character("g"))
        return model
    }
}
