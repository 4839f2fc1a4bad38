// Over 400 lines on purpose: every step of the first-run flow, in the order a user meets them.
import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The first-run flow as an update function: every step's keys, what they change and the
/// effects they ask for, without a terminal.
@Suite struct SetupFlowTests {
    typealias Fixtures = SetupFixtures

    private func keys(_ text: String) -> [KeyInput] { Fixtures.keys(text) }

    @discardableResult
    private func press(_ keys: [KeyInput], on flow: inout SetupFlow) -> [DashboardRequest?] {
        Fixtures.press(keys, on: &flow)
    }

    private func index(of id: String, in flow: SetupFlow) -> Int? { flow.choices.firstIndex { $0.app.id == id } }

    // MARK: - Start

    @Test func aFreshFlowListsTheCatalogueViceFirstWithNothingPicked() {
        let flow = Fixtures.fresh()
        #expect(flow.step == .apps)
        #expect(flow.cursor == 0)
        #expect(flow.choices.count == Fixtures.catalogue.count)
        #expect(flow.pickedApps.isEmpty)
        let categories = flow.choices.map(\.app.category)
        #expect(categories == categories.sorted { $0 == .vice && $1 == .productive })
        #expect(flow.error == nil && !flow.busy && flow.adding == nil)
    }

    @Test func appsAlreadyTrackedArePickedAndOnesOutsideTheCatalogueAreListed() throws {
        let own = TrackedApp(id: "custom-steam", name: "Steam", bundleID: "custom.steam", category: .vice)
        var renamed = Fixtures.app("tiktok")
        renamed.hidden = true
        let flow = SetupFlow(
            catalogue: Fixtures.catalogue, current: [renamed, own, Fixtures.app("notion")],
            name: try DisplayName(validating: "ada_l"))
        #expect(Set(flow.pickedApps.map(\.id)) == ["tiktok", "custom-steam", "notion"])
        // The tracked version of a catalogue app is kept (hidden stays hidden).
        #expect(flow.pickedApps.first { $0.id == "tiktok" }?.hidden == true)
        // The custom app is among the vice apps, before every productive one.
        let steam = try #require(index(of: "custom-steam", in: flow))
        let firstProductive = try #require(flow.choices.firstIndex { $0.app.category == .productive })
        #expect(steam < firstProductive)
        #expect(flow.nameInput.text == "ada_l")
    }

    // MARK: - Apps step

    @Test func arrowsAndJKMoveTheCursorAndClampAtBothEnds() {
        var flow = Fixtures.fresh()
        let addRow = flow.choices.count
        press([.up, .character("k")], on: &flow)
        #expect(flow.cursor == 0)
        press([.down, .character("j"), .down], on: &flow)
        #expect(flow.cursor == 3)
        press([.up], on: &flow)
        #expect(flow.cursor == 2)
        press(Array(repeating: .down, count: addRow + 10), on: &flow)
        #expect(flow.cursor == addRow)
        press([.character("k")], on: &flow)
        #expect(flow.cursor == addRow - 1)
    }

    @Test func spaceTogglesTheAppUnderTheCursor() {
        var flow = Fixtures.fresh()
        press([.down, .character(" ")], on: &flow)
        #expect(flow.choices[1].picked)
        #expect(flow.pickedApps.map(\.id) == [flow.choices[1].app.id])
        press([.character(" ")], on: &flow)
        #expect(!flow.choices[1].picked)
        #expect(flow.pickedApps.isEmpty)
    }

    @Test func spaceClearsAnError() {
        var flow = Fixtures.fresh()
        press([.enter], on: &flow)
        #expect(flow.error != nil)
        press([.character(" ")], on: &flow)
        #expect(flow.error == nil)
    }

    @Test func theAddRowWithSpaceOrEnterAndTheAKeyOpenTheInput() {
        for opening in [[KeyInput.character(" ")], [.enter]] {
            var flow = Fixtures.fresh()
            press(Array(repeating: .down, count: flow.choices.count) + opening, on: &flow)
            #expect(flow.adding?.text == "")
            #expect(flow.addingCategory == .vice)
        }
        var flow = Fixtures.fresh()
        press([.down, .character("a")], on: &flow)
        #expect(flow.adding?.text == "")
        // The cursor moves to the add row, where the new app's name is typed.
        #expect(flow.cursor == flow.choices.count)
    }

    @Test func typingGoesIntoTheNewAppsNameEvenLettersThatAreKeysElsewhere() {
        var flow = Fixtures.fresh()
        let effects = press([.character("a")] + keys("a jk q") + [.backspace], on: &flow)
        #expect(effects.allSatisfy { $0 == nil })
        #expect(flow.adding?.text == "a jk ")
        #expect(flow.pickedApps.isEmpty)
    }

    @Test func leftRightTabAndShiftTabSwitchTheNewAppsCategory() {
        var flow = Fixtures.fresh()
        press([.character("a")], on: &flow)
        for key in [KeyInput.right, .left, .tab, .backTab] {
            let before = flow.addingCategory
            press([key], on: &flow)
            #expect(flow.addingCategory != before)
        }
        #expect(flow.addingCategory == .vice)
    }

    @Test(arguments: [AppCategory.vice, .productive])
    func enterAddsTheNewAppPickedInItsCategory(category: AppCategory) throws {
        var flow = Fixtures.fresh()
        press([.character("a")] + keys("  Steam Deck ") + (category == .productive ? [.right] : []), on: &flow)
        #expect(press([.enter], on: &flow) == [nil])
        #expect(flow.adding == nil && flow.error == nil)
        let added = try #require(index(of: "custom-steam-deck", in: flow))
        let app = flow.choices[added].app
        #expect(app.name == "Steam Deck")
        #expect(app.category == category)
        #expect(app.bundleID == "custom.steam-deck")
        #expect(flow.choices[added].picked)
        #expect(flow.cursor == added)
        #expect(flow.choices.count == Fixtures.catalogue.count + 1)
        // It is the last of its category, so the list still runs vice first, then productive.
        #expect(flow.choices[added + 1..<flow.choices.count].allSatisfy { $0.app.category != category })
        let categories = flow.choices.map(\.app.category)
        #expect(categories == categories.sorted { $0 == .vice && $1 == .productive })
    }

    @Test func theCursorWalksTheListInTheOrderItIsShownAfterAnAdd() {
        var flow = Fixtures.fresh()
        press([.character("a")] + keys("Steam") + [.enter], on: &flow)
        let rows = SetupView(flow: flow).listRows.compactMap(\.index)
        #expect(rows == Array(0...flow.choices.count))
    }

    @Test func namesThatDifferOnlyInPunctuationGetDifferentIDs() throws {
        var flow = Fixtures.fresh()
        press([.character("a")] + keys("Foo!") + [.enter], on: &flow)
        press([.character("a")] + keys("Foo?") + [.enter], on: &flow)
        let custom = flow.choices.map(\.app).filter { $0.id.hasPrefix("custom-") }
        #expect(custom.map(\.name) == ["Foo!", "Foo?"])
        #expect(Set(custom.map(\.id)).count == 2)
        #expect(custom.map(\.id) == ["custom-foo-", "custom-foo--2"])
    }

    @Test(arguments: [
        ("", "Type the app's name."), ("   ", "Type the app's name."), ("tiktok", "TikTok is already in the list."),
        ("CANDY CRUSH", "Candy Crush is already in the list."),
    ])
    func aNewAppNameThatCannotBeUsedIsRefusedWithAMessage(typed: String, message: String) {
        var flow = Fixtures.fresh()
        press([.character("a")] + keys(typed), on: &flow)
        #expect(press([.enter], on: &flow) == [nil])
        #expect(flow.error == message)
        #expect(flow.adding != nil)
        #expect(flow.choices.count == Fixtures.catalogue.count)
        // Typing clears the message.
        press([.character("x")], on: &flow)
        #expect(flow.error == nil)
    }

    @Test(arguments: ["evil\u{7}bell", "rtl\u{202E}txt", "zero\u{200B}width", "\u{1B}[31mred"])
    func controlBidiAndInvisibleCharactersAreRefused(typed: String) {
        var flow = Fixtures.fresh()
        press([.character("a")] + keys(typed) + [.enter], on: &flow)
        #expect(flow.error == "An app name cannot hold control, bidi or invisible characters.")
        #expect(flow.choices.count == Fixtures.catalogue.count)
    }

    @Test func escapeCancelsAddingAndKeepsTheList() {
        var flow = Fixtures.fresh()
        press([.character("a")] + keys("Stea") + [.backspace, .backspace, .backspace, .backspace, .enter], on: &flow)
        #expect(flow.error == "Type the app's name.")
        #expect(press([.escape], on: &flow) == [nil])
        #expect(flow.adding == nil && flow.error == nil)
        #expect(flow.step == .apps)
        #expect(flow.choices.count == Fixtures.catalogue.count)
        // A second Esc, with nothing being added, quits.
        #expect(press([.escape], on: &flow) == [.quit])
    }

    @Test func enterWithNoViceAppPickedSaysSoAndAsksForNothing() throws {
        var flow = Fixtures.fresh()
        let productive = try #require(index(of: "notion", in: flow))
        flow.choices[productive].picked = true
        for key in [KeyInput.enter, .tab] {
            #expect(press([key], on: &flow) == [nil])
            #expect(flow.step == .apps)
            #expect(flow.error == "Pick at least one vice app: the daily limit counts their blocks.")
        }
    }

    @Test(arguments: [KeyInput.enter, .tab])
    func enterOrTabWithAViceAppSavesThePickedAppsAndMovesOn(key: KeyInput) {
        var flow = Fixtures.appsPicked()
        let picked = flow.pickedApps
        #expect(picked.map(\.id) == ["tiktok", "youtube", "notion"])
        #expect(press([key], on: &flow) == [.saveApps(picked)])
        #expect(flow.step == .name)
        #expect(flow.error == nil)
    }

    @Test func escapeOnTheAppsStepQuits() {
        var flow = Fixtures.appsPicked()
        #expect(press([.escape], on: &flow) == [.quit])
    }

    @Test func keysOutsideTheAppsStepsVocabularyDoNothing() {
        var flow = Fixtures.appsPicked()
        let before = flow
        #expect(
            press([.character("q"), .character("?"), .left, .right, .pageDown, .function(5)], on: &flow).allSatisfy {
                $0 == nil
            })
        #expect(flow == before)
    }

    // MARK: - Name step

    @Test func theNameIsJudgedAsItIsTyped() throws {
        var flow = Fixtures.nameStep()
        #expect(flow.nameVerdict == nil)
        press(keys("ada"), on: &flow)
        #expect(flow.nameVerdict == .success(try DisplayName(validating: "ada")))
        press(keys(" l!"), on: &flow)
        guard case .failure(.invalidCharacters(let names))? = flow.nameVerdict else {
            Issue.record("expected a refusal, got \(String(describing: flow.nameVerdict))")
            return
        }
        #expect(names == ["space", "'!'"])
        // Judging on the spot shows the problem, but it is not an error until Enter.
        #expect(flow.error == nil)
    }

    @Test func enterWithAnInvalidNameSetsTheErrorAndAsksForNothing() {
        var flow = Fixtures.nameStep()
        #expect(press([.enter], on: &flow) == [nil])
        #expect(flow.error == DisplayNameError.empty.message)
        press(keys("bad name!"), on: &flow)
        #expect(flow.error == nil)
        #expect(press([.enter], on: &flow) == [nil])
        #expect(flow.error?.contains("'!'") == true)
        #expect(flow.step == .name)
        press(Array(repeating: .character("x"), count: 30), on: &flow)
        press([.control("u")] + Array(repeating: .character("x"), count: 21) + [.enter], on: &flow)
        #expect(flow.error == DisplayNameError.tooLong(21).message)
        press([.backspace], on: &flow)
        #expect(flow.error == nil)
    }

    @Test func qAndOtherKeysTypeIntoTheName() {
        var flow = Fixtures.nameStep()
        let effects = press(keys("q?gr"), on: &flow)
        #expect(effects.allSatisfy { $0 == nil })
        #expect(flow.nameInput.text == "q?gr")
    }

    @Test func enterWithAValidNameSavesItAndMovesToTheGroupStep() throws {
        var flow = Fixtures.nameStep(typed: "山田_42")
        #expect(press([.enter], on: &flow) == [.saveName(try DisplayName(validating: "山田_42"))])
        #expect(flow.step == .group)
        #expect(flow.error == nil)
    }

    @Test func escapeOnTheNameStepGoesBackToTheAppsKeepingThem() {
        var flow = Fixtures.nameStep(typed: "ada")
        press([.enter], on: &flow)
        press([.escape], on: &flow)
        #expect(flow.step == .name)
        let picked = flow.pickedApps
        #expect(press([.escape], on: &flow) == [nil])
        #expect(flow.step == .apps)
        #expect(flow.pickedApps == picked)
        #expect(flow.nameInput.text == "ada")
    }

    @Test func escapeOnTheNameStepClearsItsError() {
        var flow = Fixtures.nameStep()
        press([.enter, .escape], on: &flow)
        #expect(flow.error == nil)
    }

    // MARK: - Group step

    @Test func upDownChooseAnOptionAndClamp() {
        var flow = Fixtures.groupStep()
        #expect(flow.groupOption == .create)
        press([.up, .character("k")], on: &flow)
        #expect(flow.groupOption == .create)
        press([.down], on: &flow)
        #expect(flow.groupOption == .join)
        press([.character("j"), .down, .down], on: &flow)
        #expect(flow.groupOption == .solo)
        press([.up], on: &flow)
        #expect(flow.groupOption == .join)
    }

    @Test func leftRightChangeTheGoalOnlyOnCreateWithinOneTo96() {
        var flow = Fixtures.groupStep()
        #expect(flow.goal == 8)
        press([.right, .character("+"), .left], on: &flow)
        #expect(flow.goal == 9)
        press(Array(repeating: .left, count: 20), on: &flow)
        #expect(flow.goal == UsageRules.dailyGoalRange.lowerBound)
        press([.character("-")], on: &flow)
        #expect(flow.goal == 1)
        press(Array(repeating: .right, count: 200), on: &flow)
        #expect(flow.goal == UsageRules.dailyGoalRange.upperBound)
        press([.down, .left, .left, .character("-")], on: &flow)
        #expect(flow.groupOption == .join)
        #expect(flow.goal == 96)
        press([.down, .right], on: &flow)
        #expect(flow.goal == 96)
    }

    @Test func enterOnCreateAsksForTheGroupAndWaitsIgnoringKeys() {
        var flow = Fixtures.groupStep()
        press([.right, .right], on: &flow)
        #expect(press([.enter], on: &flow) == [.createGroup(goal: 10)])
        #expect(flow.busy)
        let waiting = flow
        let effects = press([.enter, .escape, .down, .character(" "), .character("q")], on: &flow)
        #expect(effects.allSatisfy { $0 == nil })
        #expect(flow == waiting)
    }

    @Test func enterOnJoinOpensTheCodeStep() {
        var flow = Fixtures.groupStep()
        #expect(press([.down, .enter], on: &flow) == [nil, nil])
        #expect(flow.step == .joinCode)
        #expect(!flow.busy)
    }

    @Test func enterOnSoloFinishesTheSetup() {
        var flow = Fixtures.groupStep()
        #expect(press([.down, .down, .enter], on: &flow) == [nil, nil, .finishSetup])
    }

    @Test func escapeOnTheGroupStepGoesBackToTheNameAndForgetsTheGroupError() {
        var flow = Fixtures.groupStep()
        press([.enter], on: &flow)
        flow.groupFailed("The group store is locked.")
        #expect(press([.escape], on: &flow) == [nil])
        #expect(flow.step == .name)
        #expect(flow.error == nil)
        #expect(flow.nameInput.text == "ada_l")
    }

    // MARK: - Code step

    @Test func theCodeIsJudgedAsItIsTyped() throws {
        var flow = Fixtures.codeStep()
        #expect(flow.codeVerdict == nil)
        press(keys("k7q"), on: &flow)
        #expect(flow.codeVerdict == .failure(.wrongLength(3)))
        press(keys("2 xm"), on: &flow)
        #expect(flow.codeVerdict == .success(try GroupCode(validating: "K7Q2XM")))
        press([.backspace, .character("0")], on: &flow)
        #expect(flow.codeVerdict == .failure(.invalidCharacters(["'0'"])))
        #expect(flow.error == nil)
    }

    @Test(arguments: ["", "K7Q2X", "K7Q2X0", "K7Q2XMM"])
    func enterWithAnInvalidCodeSetsTheErrorAndAsksForNothing(typed: String) {
        var flow = Fixtures.codeStep(typed: typed)
        #expect(press([.enter], on: &flow) == [nil])
        #expect(flow.error != nil)
        #expect(flow.step == .joinCode)
        #expect(!flow.busy)
        if typed.isEmpty { #expect(flow.error == GroupCodeError.empty.message) }
    }

    @Test func enterWithAValidCodeJoinsItNormalisedAndWaits() throws {
        var flow = Fixtures.codeStep(typed: " k7q2-xm ")
        #expect(press([.enter], on: &flow) == [.joinGroup(try GroupCode(validating: "K7Q2XM"))])
        #expect(flow.busy)
        #expect(press([.escape, .character("a")], on: &flow) == [nil, nil])
        #expect(flow.step == .joinCode)
        #expect(flow.codeInput.text == " k7q2-xm ")
    }

    @Test func escapeOnTheCodeStepGoesBackToTheGroupOptions() {
        var flow = Fixtures.codeStep(typed: "K7")
        press([.enter], on: &flow)
        #expect(press([.escape], on: &flow) == [nil])
        #expect(flow.step == .group)
        #expect(flow.error == nil)
        #expect(flow.groupOption == .join)
    }

    // MARK: - Outcomes

    @Test(arguments: [true, false])
    func aGroupMadeOrJoinedShowsTheDoneStepAndEnterFinishes(created: Bool) {
        var flow = created ? Fixtures.groupStep() : Fixtures.codeStep(typed: "K7Q2XM")
        press([.enter], on: &flow)
        flow.groupSucceeded(code: "K7Q2XM", created: created, memberCount: created ? 1 : 5)
        #expect(flow.step == .done(code: "K7Q2XM", created: created, memberCount: created ? 1 : 5))
        #expect(!flow.busy && flow.error == nil)
        #expect(press([.character("x"), .down], on: &flow) == [nil, nil])
        #expect(press([.enter], on: &flow) == [.finishSetup])
        for key in [KeyInput.escape, .character(" ")] {
            var again = flow
            #expect(again.handle(key) == .finishSetup)
        }
    }

    @Test func aFailedGroupActionKeepsTheStepWithTheMessage() {
        var creating = Fixtures.groupStep()
        press([.enter], on: &creating)
        creating.groupFailed("The group store is locked.")
        #expect(creating.step == .group && !creating.busy)
        #expect(creating.error == "The group store is locked.")
        // And it can be tried again.
        #expect(press([.enter], on: &creating) == [.createGroup(goal: 8)])

        var joining = Fixtures.codeStep(typed: "K7Q2XM")
        press([.enter], on: &joining)
        joining.groupFailed("No group has the code K7Q2XM.")
        #expect(joining.step == .joinCode && !joining.busy)
        #expect(joining.error == "No group has the code K7Q2XM.")
        press([.backspace], on: &joining)
        #expect(joining.error == nil)
    }

    @Test func aNameTakenInTheGroupGoesBackToTheNameStep() throws {
        var flow = Fixtures.codeStep(typed: "K7Q2XM")
        press([.enter], on: &flow)
        flow.nameRejected("ada_l is taken in this group.")
        #expect(flow.step == .name)
        #expect(!flow.busy)
        #expect(flow.error == "ada_l is taken in this group.")
        press([.backspace, .character("2")], on: &flow)
        #expect(flow.error == nil)
        #expect(press([.enter], on: &flow) == [.saveName(try DisplayName(validating: "ada_2"))])
        #expect(flow.step == .group)
    }
}
