import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The setup steps and the group screen at every size from the minimum up: every row exactly
/// the frame's width, every box closed on the right (no text ran through its border), hints
/// whole, and the group code always there in plain letters.
@Suite struct SetupAndGroupLayoutTests {
    static let sizes: [(Int, Int)] = (ScreensModel.minimumWidth...140).flatMap { width in
        [ScreensModel.minimumHeight, 20, 24, 40].map { (width, $0) }
    }

    /// The flows worth drawing: each step, with long input, errors and the code.
    static func flows() -> [(String, SetupFlow)] {
        var adding = SetupFixtures.appsPicked()
        SetupFixtures.press(
            [.character("a")] + SetupFixtures.keys("A very long name for an app, forty chars"), on: &adding)
        var addingError = adding
        SetupFixtures.press([.enter], on: &addingError)
        var noVice = SetupFixtures.fresh()
        SetupFixtures.press([.enter], on: &noVice)
        var longName = SetupFixtures.nameStep(typed: String(repeating: "x", count: 40))
        SetupFixtures.press([.enter], on: &longName)
        var failed = SetupFixtures.groupStep()
        SetupFixtures.press([.enter], on: &failed)
        failed.groupFailed(
            "The group store at /very/long/path/to/a/shared/directory/screenmates/groups.sqlite is locked by another "
                + "process; try again in a moment.")
        var badCode = SetupFixtures.codeStep(typed: "K7Q2X0ÄÖ")
        SetupFixtures.press([.enter], on: &badCode)
        var done = SetupFixtures.groupStep()
        SetupFixtures.press([.enter], on: &done)
        done.groupSucceeded(code: "K7Q2XM", created: true, memberCount: 1)
        var joined = SetupFixtures.codeStep(typed: "K7Q2XM")
        SetupFixtures.press([.enter], on: &joined)
        joined.groupSucceeded(code: "K7Q2XM", created: false, memberCount: 12)
        return [
            ("apps", SetupFixtures.appsPicked()), ("adding", adding), ("adding error", addingError),
            ("no vice", noVice), ("name", SetupFixtures.nameStep(typed: "ada_l")), ("long name", longName),
            ("group", SetupFixtures.groupStep()), ("failed", failed), ("code", SetupFixtures.codeStep(typed: "k7q2xm")),
            ("bad code", badCode), ("done", done), ("joined", joined),
        ]
    }

    static func groupModels() -> [(String, ScreensModel)] {
        var result: [(String, ScreensModel)] = []
        for (name, data) in [("group", DashboardFixtures.bigGroup()), ("none", DashboardFixtures.solo())] {
            let model = SetupFixtures.groupScreen(data, width: 80, height: 24)
            result.append((name, model))
            for (mode, keys) in [
                ("join", [KeyInput.character("j")] + SetupFixtures.keys("K7Q2X0Ä") + [.enter]),
                ("create", [.character("c"), .right]), ("leave", [.character("l")]),
            ] {
                var moded = model
                SetupFixtures.press(keys, on: &moded)
                result.append(("\(name) \(mode)", moded))
            }
        }
        var message = SetupFixtures.groupScreen(DashboardFixtures.crowd(40), width: 80, height: 24)
        SetupFixtures.press([.character("j")] + SetupFixtures.keys("ABCDEF") + [.enter], on: &message)
        message.groupScreen.finished(
            "The group store at /very/long/path/to/a/shared/directory/screenmates/groups.sqlite is locked by "
                + "another process; try again in a moment.", error: true)
        result.append(("crowd message", message))
        return result
    }

    @Test func setupStepsFitEverySize() {
        for (name, flow) in Self.flows() {
            for (width, height) in Self.sizes {
                let model = SetupFixtures.model(flow, width: width, height: height)
                let frame = ScreenRenderer.render(model)
                let size = "\(name) at \(width)×\(height)"
                expectClosedBoxes(frame, size)
                // The hints row (above the box's bottom border) holds whole hints, in order.
                guard let bottom = (0..<height).last(where: { frame.line($0).contains(frame.glyphs.bottomLeft) })
                else {
                    Issue.record("\(size): no box")
                    continue
                }
                let hintsRow = inside(frame.line(bottom - 1))
                let sets = SetupView(flow: flow).hintSets(glyphs: frame.glyphs).map { hints in
                    hints.map { "\($0.label) \($0.summary)" }.joined(separator: "  ")
                }
                #expect(sets.contains(hintsRow), "\(size): hints row \"\(hintsRow)\"")
                if case .done = flow.step {
                    #expect(frame.text.contains("K7Q2XM"), "\(size): no code")
                }
            }
        }
    }

    @Test func theGroupScreenFitsEverySize() {
        for (name, base) in Self.groupModels() {
            for (width, height) in Self.sizes {
                var model = base
                model.resize(width: width, height: height)
                let frame = ScreenRenderer.render(model)
                let size = "\(name) at \(width)×\(height)"
                expectClosedBoxes(frame, size)
                if model.data?.group != nil {
                    #expect(frame.text.contains("Code K7Q2XM"), "\(size): no plain code")
                }
            }
        }
    }

    /// The text of a row between the first and the last border on it, trimmed.
    private func inside(_ line: String) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return String(trimmed.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
    }

    /// Every row is the frame's width, and every row that opens a box closes it: text that ran
    /// into the right border would have overwritten it.
    private func expectClosedBoxes(
        _ frame: Frame, _ size: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let g = frame.glyphs
        let pairs = [(g.vertical, g.vertical), (g.topLeft, g.topRight), (g.bottomLeft, g.bottomRight)]
        for y in 0..<frame.height - 1 {
            let line = frame.line(y)
            #expect(CellWidth.of(line) == frame.width, "\(size): row \(y) width", sourceLocation: sourceLocation)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let first = trimmed.first.map(String.init), let last = trimmed.last.map(String.init) else { continue }
            for (open, close) in pairs where first == open {
                #expect(last == close, "\(size): row \(y) is not closed: \(line)", sourceLocation: sourceLocation)
            }
        }
    }
}
