import ScreenMatesCore
import Testing

@testable import ScreenMatesUI

/// The challenges, profile and week screens, compared as text with the files in `Goldens/`,
/// and the header's coin balance.
@Suite struct GameScreensGoldenTests {
    static let sizes = [(80, 24), (120, 40)]

    @Test(arguments: sizes)
    func challengesList(width: Int, height: Int) {
        let frame = FrameChecks.render(GamesFixtures.model(.challenges, width: width, height: height))
        Golden.check(frame.text, named: "challenges-\(width)x\(height)")
        for text in ["k2m9qt", "p7rw3x", "ab12", "still in", "failed", "gave up", "山田太郎", "2/7 days kept"] {
            #expect(frame.text.contains(text), "missing \(text)")
        }
        #expect(frame.text.contains("135 coins"), "the header shows the balance")
    }

    /// With no challenge yet, the hint goes on under itself at 80 columns instead of being cut.
    @Test(arguments: sizes)
    func noChallengeYetWrapsItsHint(width: Int, height: Int) {
        var model = GamesFixtures.model(.challenges, width: width, height: height)
        model.data?.games?.challenges = []
        let frame = FrameChecks.render(model)
        let text = frame.text.split(separator: "\n").map { $0.replacingOccurrences(of: "│", with: " ") }
            .joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("No challenge yet"), "\(frame.text)")
        #expect(
            text.contains("c creates one: a rule over some days, with coins at stake, yours or your group's."),
            "\(frame.text)")
    }

    /// A challenge open to all on the group store: its whole id (eight characters), its kind, and
    /// its board across groups when chosen.
    @Test(arguments: sizes)
    func aChallengeOpenToAllShowsItsBoard(width: Int, height: Int) {
        var model = GamesFixtures.model(.challenges, width: width, height: height)
        var row = GamesData.ChallengeRow(
            id: "q7kd2mxa", summary: "at most 1 block of vice apps a day", firstDay: GamesFixtures.day,
            lastDay: GamesFixtures.day.adding(days: 1), reward: 50, penalty: 25,
            state: "running until the end of 2026-03-19", isGroup: true, joined: true, canForfeit: true,
            participants: [
                .init(rank: 1, name: "ada_l", state: .stillIn, daysKept: 1, isMe: true),
                .init(rank: 2, name: "zoe", state: .failed, daysKept: 0, isMe: false),
            ])
        row.isOpenToAll = true
        model.data?.games?.challenges.insert(row, at: 0)
        let frame = FrameChecks.render(model)
        let line = frame.text.split(separator: "\n").first { $0.contains("q7kd2mxa") }
        #expect(line?.contains("q7kd2mxa all") == true, "\(frame.text)")
        #expect(frame.text.contains("zoe") && frame.text.contains("ada_l (you)"), "\(frame.text)")
    }

    @Test(arguments: sizes)
    func challengesForm(width: Int, height: Int) {
        var model = GamesFixtures.model(.challenges, width: width, height: height)
        for key: KeyInput in [.character("c"), .down, .right, .down, .right, .right] { _ = model.handle(key) }
        let frame = FrameChecks.render(model)
        Golden.check(frame.text, named: "challenges-form-\(width)x\(height)")
        #expect(frame.text.contains("New challenge") && frame.text.contains("YouTube"), "\(frame.text)")
        #expect(frame.text.contains("at most 3 blocks of youtube a day"))
    }

    @Test(arguments: sizes)
    func challengesConfirmingAForfeit(width: Int, height: Int) {
        var model = GamesFixtures.model(.challenges, width: width, height: height)
        _ = model.handle(.character("f"))
        let frame = FrameChecks.render(model)
        Golden.check(frame.text, named: "challenges-forfeit-\(width)x\(height)")
        #expect(frame.text.contains("Give up k2m9qt?") && frame.text.contains("up to 40 coins"))
    }

    @Test(arguments: sizes)
    func profile(width: Int, height: Int) {
        let frame = FrameChecks.render(GamesFixtures.model(.profile, width: width, height: height))
        Golden.check(frame.text, named: "profile-\(width)x\(height)")
        #expect(frame.text.contains("4 of 11 badges"))
        for category in ["Streak", "Restraint", "Challenge"] { #expect(frame.text.contains(category)) }
        #expect(frame.text.contains("A week strong"))
        if width >= 100 { #expect(frame.text.contains("challenge ab12 kept")) }
    }

    @Test(arguments: sizes)
    func week(width: Int, height: Int) {
        let frame = FrameChecks.render(GamesFixtures.model(.week, width: width, height: height))
        Golden.check(frame.text, named: "week-\(width)x\(height)")
        #expect(frame.text.contains("Week of Mon 9 Mar") && frame.text.contains("waiting for 2 days"))
        #expect(frame.text.contains("+20 coins") && frame.text.contains("-40 coins"))
        #expect(frame.text.contains("2 days not sent"))
        // A change a member made, from the week after this one.
        #expect(frame.text.contains("From Mon 23 Mar: a kept day +10"))
    }

    @Test func theScreensInASCII() {
        for screen in [ScreensModel.Screen.challenges, .profile, .week] {
            let frame = FrameChecks.render(GamesFixtures.model(screen, width: 80, height: 24), glyphs: .ascii)
            FrameChecks.expectASCII(frame.text)
        }
    }

    @Test func theScreensAtTheMinimumSize() {
        for screen in [ScreensModel.Screen.challenges, .profile, .week] {
            let frame = FrameChecks.render(
                GamesFixtures.model(screen, width: ScreensModel.minimumWidth, height: ScreensModel.minimumHeight))
            #expect(frame.text.contains("esc back"), "\(screen)")
        }
    }

    @Test func withoutGamesTheHeaderHasNoCoins() {
        let frame = FrameChecks.render(DashboardFixtures.model(DashboardFixtures.bigGroup(), width: 120, height: 40))
        #expect(!frame.text.contains("coins"))
    }
}
