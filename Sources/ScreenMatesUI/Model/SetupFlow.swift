import ScreenMatesCore

/// The first-run setup: pick the apps to track, choose a display name, then create a group (its
/// code is shown big, to share), join one by code, or stay solo. Every step checks its input on
/// the spot and says what is wrong; nothing is saved until a step's input is valid.
///
/// Pure state: keys in, state and effects out. The application performs the effects and reports
/// back with `groupSucceeded` / `groupFailed` / `nameRejected`.
public struct SetupFlow: Hashable, Sendable {
    public enum Step: Hashable, Sendable {
        case apps
        case name
        case group
        case joinCode
        /// The group is made or joined; `created` shows the code big to share.
        case done(code: String, created: Bool, memberCount: Int)
    }

    /// One app in the picker.
    public struct AppChoice: Hashable, Sendable {
        public var app: TrackedApp
        public var picked: Bool

        public init(app: TrackedApp, picked: Bool) {
            self.app = app
            self.picked = picked
        }
    }

    /// The group step's options, in screen order.
    public enum GroupOption: Int, Hashable, Sendable, CaseIterable {
        case create
        case join
        case solo
    }

    public var step: Step
    public var choices: [AppChoice]
    /// The highlighted row of the app list; `choices.count` is the "add your own" row.
    public var cursor = 0
    /// The name of an app being added, while it is being typed.
    public var adding: TextInput?
    public var addingCategory: AppCategory = .vice
    public var nameInput: TextInput
    public var groupOption: GroupOption = .create
    /// The daily goal of a group about to be created.
    public var goal = 8
    public var codeInput = TextInput(maximumLength: 16)
    /// What is wrong with the current step's input, or why the group action failed.
    public var error: String?
    /// Waiting for the group store.
    public var busy = false

    /// - Parameters:
    ///   - catalogue: the common apps to offer.
    ///   - current: the apps already tracked (picked, and listed first when not in the catalogue).
    ///   - name: the display name already chosen, if any (the name step starts with it).
    public init(catalogue: [TrackedApp], current: [TrackedApp], name: DisplayName?) {
        var choices = catalogue.map { app in
            AppChoice(app: current.first { $0.id == app.id } ?? app, picked: current.contains { $0.id == app.id })
        }
        for app in current where !catalogue.contains(where: { $0.id == app.id }) {
            choices.append(AppChoice(app: app, picked: true))
        }
        // Vice apps first, then productive; each in catalogue order.
        self.choices = choices.filter { $0.app.category == .vice } + choices.filter { $0.app.category == .productive }
        nameInput = TextInput(text: name?.value ?? "", maximumLength: 40)
        step = .apps
    }

    /// The apps picked so far.
    public var pickedApps: [TrackedApp] { choices.filter(\.picked).map(\.app) }

    /// What the name field says about its text right now (nil while empty).
    public var nameVerdict: Result<DisplayName, DisplayNameError>? {
        nameInput.text.isEmpty
            ? nil : Result { () throws(DisplayNameError) in try DisplayName(validating: nameInput.text) }
    }

    /// What the code field says about its text right now (nil while empty).
    public var codeVerdict: Result<GroupCode, GroupCodeError>? {
        codeInput.text.isEmpty ? nil : Result { () throws(GroupCodeError) in try GroupCode(validating: codeInput.text) }
    }

    /// Applies one key. Esc goes back a step (and quits from the first one).
    public mutating func handle(_ key: KeyInput) -> DashboardRequest? {
        guard !busy else { return nil }
        switch step {
        case .apps: return handleApps(key)
        case .name: return handleName(key)
        case .group: return handleGroup(key)
        case .joinCode: return handleCode(key)
        case .done: return key == .enter || key == .escape || key == .character(" ") ? .finishSetup : nil
        }
    }

    /// The group was created or joined.
    public mutating func groupSucceeded(code: String, created: Bool, memberCount: Int) {
        busy = false
        error = nil
        step = .done(code: code, created: created, memberCount: memberCount)
    }

    /// The group action failed; the message says why (an unknown code, a name taken…).
    public mutating func groupFailed(_ message: String) {
        busy = false
        error = message
    }

    /// The name cannot be used (taken in the group); back to the name step.
    public mutating func nameRejected(_ message: String) {
        busy = false
        step = .name
        error = message
    }

    // MARK: - Steps

    private mutating func handleApps(_ key: KeyInput) -> DashboardRequest? {
        if adding != nil { return handleAdding(key) }
        let addRow = choices.count
        switch key {
        case .up, .character("k"):
            cursor = max(0, cursor - 1)
        case .down, .character("j"):
            cursor = min(addRow, cursor + 1)
        case .character(" "):
            if cursor < addRow {
                choices[cursor].picked.toggle()
                error = nil
            } else {
                startAdding()
            }
        case .character("a"):
            startAdding()
        case .enter:
            if cursor == addRow { startAdding() } else { return finishApps() }
        case .tab:
            return finishApps()
        case .escape:
            return .quit
        default:
            break
        }
        return nil
    }

    private mutating func startAdding() {
        cursor = choices.count
        adding = TextInput(maximumLength: 40)
        addingCategory = .vice
        error = nil
    }

    private mutating func handleAdding(_ key: KeyInput) -> DashboardRequest? {
        switch key {
        case .escape:
            adding = nil
            error = nil
        case .left, .right, .tab, .backTab:
            addingCategory = addingCategory == .vice ? .productive : .vice
        case .enter:
            let name = (adding?.text ?? "").trimmingCharacters(in: .whitespaces)
            if let problem = Self.problem(withAppName: name, existing: choices.map(\.app)) {
                error = problem
                return nil
            }
            // At the end of its category, so that the list (vice first, then productive) stays in
            // the order the screen shows it and the cursor moves through it row by row.
            let app = Self.customApp(name, category: addingCategory, existing: choices.map(\.app))
            let index =
                choices.lastIndex { $0.app.category == app.category }.map { $0 + 1 }
                ?? (app.category == .vice ? 0 : choices.count)
            choices.insert(AppChoice(app: app, picked: true), at: index)
            cursor = index
            adding = nil
            error = nil
        default:
            if adding?.handle(key) == true { error = nil }
        }
        return nil
    }

    private mutating func finishApps() -> DashboardRequest? {
        guard pickedApps.contains(where: { $0.category == .vice }) else {
            error = "Pick at least one vice app: the daily limit counts their blocks."
            return nil
        }
        error = nil
        step = .name
        return .saveApps(pickedApps)
    }

    private mutating func handleName(_ key: KeyInput) -> DashboardRequest? {
        switch key {
        case .escape:
            step = .apps
            error = nil
        case .enter:
            switch nameVerdict {
            case .success(let name)?:
                error = nil
                step = .group
                return .saveName(name)
            case .failure(let problem)?:
                error = problem.message
            case nil:
                error = DisplayNameError.empty.message
            }
        default:
            if nameInput.handle(key) { error = nil }
        }
        return nil
    }

    private mutating func handleGroup(_ key: KeyInput) -> DashboardRequest? {
        let options = GroupOption.allCases
        switch key {
        case .up, .character("k"):
            groupOption = options[max(0, groupOption.rawValue - 1)]
        case .down, .character("j"):
            groupOption = options[min(options.count - 1, groupOption.rawValue + 1)]
        case .left, .character("-"):
            if groupOption == .create { goal = max(UsageRules.dailyGoalRange.lowerBound, goal - 1) }
        case .right, .character("+"):
            if groupOption == .create { goal = min(UsageRules.dailyGoalRange.upperBound, goal + 1) }
        case .escape:
            step = .name
            error = nil
        case .enter:
            error = nil
            switch groupOption {
            case .create:
                busy = true
                return .createGroup(goal: goal)
            case .join:
                step = .joinCode
            case .solo:
                return .finishSetup
            }
        default:
            break
        }
        return nil
    }

    private mutating func handleCode(_ key: KeyInput) -> DashboardRequest? {
        switch key {
        case .escape:
            step = .group
            error = nil
        case .enter:
            switch codeVerdict {
            case .success(let code)?:
                error = nil
                busy = true
                return .joinGroup(code)
            case .failure(let problem)?:
                error = problem.message
            case nil:
                error = GroupCodeError.empty.message
            }
        default:
            if codeInput.handle(key) { error = nil }
        }
        return nil
    }

    // MARK: - Custom apps

    /// Why an app name typed by the user cannot be added, or nil when it can.
    static func problem(withAppName name: String, existing: [TrackedApp]) -> String? {
        if name.isEmpty { return "Type the app's name." }
        if SafeText.hasUnsafeCharacters(name) {
            return "An app name cannot hold control, bidi or invisible characters."
        }
        if name.count > 40 { return "App names have at most 40 characters; this one has \(name.count)." }
        if let same = existing.first(where: { $0.name.lowercased() == name.lowercased() }) {
            return "\(same.name) is already in the list."
        }
        return nil
    }

    /// An app the user typed: id `custom-<slug>`, unique among `existing` (names that differ
    /// only in punctuation, such as "Foo!" and "Foo?", get `custom-foo-` and `custom-foo--2`).
    static func customApp(_ name: String, category: AppCategory, existing: [TrackedApp] = []) -> TrackedApp {
        let slug = String(
            name.lowercased().unicodeScalars.map {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "-"
            })
        let taken = Set(existing.map(\.id))
        var id = "custom-\(slug)"
        var suffix = 2
        while taken.contains(id) {
            id = "custom-\(slug)-\(suffix)"
            suffix += 1
        }
        return TrackedApp(id: id, name: name, bundleID: "custom.\(id.dropFirst("custom-".count))", category: category)
    }
}
