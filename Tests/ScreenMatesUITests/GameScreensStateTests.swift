import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The challenges, profile and week screens' keys: what each asks of the application, and
/// that giving a challenge up asks first.
@Suite struct GameScreensStateTests {
    private func model(_ screen: ScreensModel.Screen) -> ScreensModel {
        GamesFixtures.model(screen, width: 80, height: 24)
    }

    @Test func joiningAndGivingUpNeedTheRightChallenge() {
        var model = model(.challenges)
        // The first row is one of Ada's: it cannot be joined.
        #expect(model.handle(.character("j")) == nil && model.games.challenges.messageIsError)
        _ = model.handle(.down)
        #expect(model.handle(.character("j")) == .joinChallenge("p7rw3x"))
        #expect(model.games.challenges.busy)
        model.games.challenges.finished("Joined challenge p7rw3x.", error: false)
        // The open one cannot be given up; the kept one neither.
        _ = model.handle(.character("f"))
        #expect(model.games.challenges.mode == .list && model.games.challenges.messageIsError)
        _ = model.handle(.down)
        _ = model.handle(.character("f"))
        #expect(model.games.challenges.mode == .list)
    }

    @Test func givingUpAsksFirst() {
        var model = model(.challenges)
        _ = model.handle(.character("f"))
        #expect(model.games.challenges.mode == .confirmForfeit("k2m9qt"))
        #expect(model.handle(.character("n")) == nil)
        #expect(model.games.challenges.mode == .list)
        _ = model.handle(.character("f"))
        #expect(model.handle(.character("y")) == .forfeitChallenge("k2m9qt"))
        #expect(model.handle(.character("y")) == nil, "busy until the application answers")
    }

    @Test func theFormMakesOnlyChallengesTheRulesAccept() {
        var model = model(.challenges)
        _ = model.handle(.character("c"))
        // Walk every field, stepping each value far down and far up.
        for _ in 0..<12 {
            for _ in 0..<400 { _ = model.handle(.left) }
            for _ in 0..<3 { _ = model.handle(.right) }
            _ = model.handle(.down)
        }
        guard case .create(let form) = model.games.challenges.mode else {
            Issue.record("the form closed")
            return
        }
        let request = form.request
        let challenge = Challenge(
            id: "x", rule: request.rule, firstDay: GamesFixtures.day, days: request.days, reward: request.reward,
            penalty: request.penalty)
        #expect(challenge.problem == nil, "\(challenge)")
        #expect(model.handle(.enter) == .createChallenge(request))
    }

    @Test func aSharedChallengeNeverNamesAHiddenApp() {
        var form = ChallengeForm()
        let apps = GamesFixtures.games.apps
        form.field = .app
        form.step(-1, apps: apps, inGroup: true)
        #expect(form.app == "secret", "the last vice app, hidden")
        form.field = .share
        form.step(1, apps: apps, inGroup: true)
        #expect(form.shared && form.app == nil)
        form.field = .app
        for _ in 0..<5 {
            form.step(1, apps: apps, inGroup: true)
            #expect(form.app != "secret")
        }
    }

    @Test func escGoesBackAndQQuitsFromTheLists() {
        for screen in [ScreensModel.Screen.challenges, .profile, .week] {
            var model = model(screen)
            #expect(model.handle(.character("q")) == .quit, "\(screen)")
            _ = model.handle(.escape)
            #expect(model.screen == .dashboard, "\(screen)")
        }
        var model = model(.challenges)
        _ = model.handle(.character("c"))
        #expect(model.handle(.character("q")) == nil, "q is no quit while the form is open")
        _ = model.handle(.escape)
        #expect(model.screen == .challenges && model.games.challenges.mode == .list)
    }
}
