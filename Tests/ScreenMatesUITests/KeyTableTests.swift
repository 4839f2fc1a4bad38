import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The one key table that feeds the keys, the footer and the help screen.
@Suite struct KeyTableTests {
    let table = KeyTable.standard

    @Test(arguments: ScreenKind.allCases)
    func noTwoBindingsOnAScreenShareAKey(screen: ScreenKind) {
        var owner: [KeyInput: Action] = [:]
        for binding in table.all(for: screen) {
            for key in binding.keys {
                if let other = owner[key] {
                    Issue.record("\(key.label) is bound to both \(other) and \(binding.action) on \(screen)")
                }
                owner[key] = binding.action
            }
        }
    }

    @Test func everyActionHasAKey() {
        let bound = Set(table.bindings.filter { !$0.keys.isEmpty && !$0.screens.isEmpty }.map(\.action))
        #expect(bound == Set(Action.allCases))
    }

    @Test func theSpecKeysAreBound() {
        #expect(table.action(for: .character("q"), on: .dashboard) == .quit)
        #expect(table.action(for: .character("?"), on: .dashboard) == .help)
        for key in [KeyInput.character("r"), .function(5), .control("l")] {
            #expect(table.action(for: key, on: .dashboard) == .refresh)
        }
        #expect(table.action(for: .tab, on: .dashboard) == .nextPeriod)
        #expect(table.action(for: .backTab, on: .dashboard) == .previousPeriod)
        for key in [KeyInput.down, .character("j")] { #expect(table.action(for: key, on: .dashboard) == .scrollDown) }
        for key in [KeyInput.up, .character("k")] { #expect(table.action(for: key, on: .dashboard) == .scrollUp) }
        for key in [KeyInput.right, .character("l")] { #expect(table.action(for: key, on: .dashboard) == .nextPeriod) }
        #expect(table.action(for: .left, on: .dashboard) == .previousPeriod)
        // `h` opens the history (the spec's screen key wins over vi-style "left").
        #expect(table.action(for: .character("h"), on: .dashboard) == .history)
        #expect(table.action(for: .escape, on: .history) == .back)
        #expect(table.action(for: .character("s"), on: .dashboard) == .settings)
        #expect(table.action(for: .escape, on: .settings) == .back)
        #expect(table.action(for: .escape, on: .help) == .back)
        #expect(table.action(for: .character("g"), on: .dashboard) == .group)
        #expect(table.action(for: .character("g"), on: .group) == .group)
        #expect(table.action(for: .escape, on: .group) == .back)
        #expect(table.action(for: .character("q"), on: .group) == .quit)
        #expect(table.action(for: .character("c"), on: .group) == .createGroup)
        #expect(table.action(for: .character("j"), on: .group) == .joinGroup)
        #expect(table.action(for: .character("l"), on: .group) == .leaveGroup)
        for key in [KeyInput.character("c"), .character("j"), .character("l")] {
            #expect(table.action(for: key, on: .dashboard) != table.action(for: key, on: .group))
        }
        #expect(table.action(for: .character("q"), on: .tooSmall) == .quit)
        #expect(table.action(for: .character("x"), on: .dashboard) == nil)
    }

    /// The help screen lists every binding of the table: with all its keys at 80×24 and wider
    /// (every key on the first page; at 80×24 what the numbers mean follows below, `j`), and at
    /// least with its label (`r` for `r, F5, ctrl-l`) at the minimum size, where it scrolls
    /// (j/↓) to show the rest.
    @Test(arguments: [(80, 24), (120, 40), (ScreensModel.minimumWidth, ScreensModel.minimumHeight)])
    func everyBindingIsListedInTheHelpScreen(width: Int, height: Int) {
        var model = ScreensModel(screen: .help, width: width, height: height)
        var lines: [String] = []
        var previous: Int?
        while previous != model.helpScroll {
            previous = model.helpScroll
            let frame = ScreenRenderer.render(model)
            // At 80 columns and wider, every key is on the first page.
            if width < 80 || previous == 0 { lines += (0..<frame.height - 1).map { frame.line($0) } }
            _ = model.handle(.character("j"))
        }
        if width >= 120 { #expect(model.helpScroll == 0, "no scrolling needed at \(width)×\(height)") }
        for binding in table.bindings {
            let keys = binding.keys.map(\.label).joined(separator: ", ")
            let shown = width >= 80 ? [keys] : [keys, binding.label]
            #expect(
                lines.contains { line in shown.contains { line.contains($0 + " ") } && line.contains(binding.summary) },
                "\(binding.action) (\(keys): \(binding.summary)) is not on the help screen at \(width)×\(height)")
        }
        for (keys, summary) in HelpView.terminalKeys.map({ ($0.label, $0.summary) }) {
            #expect(lines.contains { $0.contains(keys) && $0.contains(summary) }, "\(keys) at \(width)×\(height)")
        }
    }

    /// Keys are listed under the screen they work on, so `j` (scroll on the dashboard, join on
    /// the group screen) is not a puzzle.
    @Test func helpGroupsTheKeysByScreen() {
        let sections = HelpView.sections(for: table, allKeys: true)
        #expect(
            sections.map(\.title) == [
                "Dashboard", "Group screen (g)", "Settings screen (s)", "Debug panel (D)", "Anywhere",
            ])
        #expect(
            sections[1].entries.map(\.summary) == [
                "create a group", "join by code", "leave", "more members", "members above", "back",
            ])
        // Every binding once.
        #expect(sections.dropLast().flatMap(\.entries).count == table.bindings.count)
    }

    /// The settings screen's keys are listed under it, saying what they do there: the arrows
    /// choose a setting and step its value (on the dashboard they scroll and change the period).
    @Test func helpListsTheSettingsScreensOwnKeys() {
        let sections = HelpView.sections(for: table, allKeys: true)
        let settings = sections.first { $0.title == "Settings screen (s)" }
        #expect(
            settings?.entries.map(\.summary) == [
                "next setting", "previous setting", "next value", "previous value", "mark productive", "mark vice",
                "switch, hide, add", "remove app",
            ])
        #expect(table.action(for: .down, on: .settings) == .scrollDown)
        #expect(table.action(for: .character("k"), on: .settings) == .scrollUp)
        #expect(table.action(for: .right, on: .settings) == .nextPeriod)
        #expect(table.action(for: .left, on: .settings) == .previousPeriod)
        // On the help screen they are drawn: the frame at 80×24 shows them under that title.
        let frame = ScreenRenderer.render(ScreensModel(screen: .help, width: 80, height: 24))
        for summary in ["next setting", "previous setting", "next value", "previous value", "mark productive"] {
            #expect(frame.text.contains(summary), "\(summary) missing:\n\(frame.text)")
        }
    }

    /// A footer shows the bindings marked for it, except the one that opens the screen it is
    /// on: `esc back` is there, and `h history` on the history screen reads as a way elsewhere.
    @Test(arguments: ScreenKind.allCases)
    func theFooterShowsOnlyBindingsMarkedForIt(screen: ScreenKind) {
        let footer = table.footer(for: screen)
        #expect(footer.allSatisfy { $0.inFooter && $0.screens.contains(screen) })
        #expect(footer == table.all(for: screen).filter { $0.inFooter && $0.action.opens != screen })
        #expect(!footer.contains { $0.action.opens == screen }, "\(screen) offers itself")
    }

    /// The footer line drawn on the dashboard, on help and on the group screen holds exactly
    /// the footer bindings.
    @Test(arguments: [ScreensModel.Screen.dashboard, .help, .group])
    func theDrawnFooterMatchesTheTable(screen: ScreensModel.Screen) {
        let model = DashboardFixtures.model(DashboardFixtures.crowd(3), width: 120, height: 40, screen: screen)
        let footerLine = ScreenRenderer.render(model).line(39)
        let kind = model.screenKind
        for binding in table.all(for: kind) {
            let hint = "\(binding.label) \(binding.summary)"
            if binding.action.opens == kind {
                #expect(!footerLine.contains(hint), "\(hint) offered on its own screen")
            } else if binding.inFooter {
                #expect(footerLine.contains(hint), "\(hint) missing from the footer")
            } else {
                #expect(!footerLine.contains(binding.summary), "\(hint) is not meant for the footer")
            }
        }
    }

    @Test func aBindingLeftOutOfTheFooterStillWorksAndIsInHelp() {
        let keys = KeyTable(bindings: [
            KeyBinding(.quit, keys: [.character("x")], summary: "leave", screens: [.dashboard, .help]),
            KeyBinding(.help, keys: [.function(1)], summary: "assist", screens: [.dashboard, .help], inFooter: false),
        ])
        var model = ScreensModel(screen: .dashboard, width: 80, height: 24, keys: keys)
        #expect(model.handle(.character("q")) == nil)
        #expect(model.handle(.function(1)) == nil)
        #expect(model.screen == .help)
        let frame = ScreenRenderer.render(model)
        #expect(frame.line(23).contains("x leave"))
        #expect(!frame.line(23).contains("assist"))
        #expect(frame.text.contains("F1") && frame.text.contains("assist"))
        #expect(model.handle(.character("x")) == .quit)
    }

    @Test func labelsDefaultToTheKeysJoinedBySlashes() {
        let binding = KeyBinding(
            .scrollDown, keys: [.down, .character("j"), .character(" ")], summary: "down", screens: [])
        #expect(binding.label == "↓/j/space")
        #expect(KeyInput.control("l").label == "ctrl-l")
        #expect(KeyInput.backTab.label == "shift-tab")
        #expect(KeyInput.function(5).label == "F5")
    }
}
