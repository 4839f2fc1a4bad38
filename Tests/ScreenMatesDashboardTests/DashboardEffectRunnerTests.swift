import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesHome
import ScreenMatesHomeTestSupport
import ScreenMatesMonitorRuntime
import ScreenMatesStore
import ScreenMatesUI
import Testing

@testable import ScreenMatesDashboard

/// The effect runner on a real home (a store and a config file in a temporary directory), with a
/// fixed time zone and a screen that records.
@Suite struct DashboardEffectRunnerTests {
    final class Fixture {
        let home: HomeDirectory
        let effects: DashboardEffectRunner
        let screen = ScriptedScreen()
        let tasks = BackgroundTasks()
        let inbox = DashboardInbox(wake: {})
        /// The dashboard's state the effects are performed in (the user's setup, the group).
        var state: DashboardState

        init(
            clock: any AppClock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000)),
            options: DashboardOptions = DashboardOptions()
        ) throws {
            home = HomeDirectory(path: NSTemporaryDirectory() + "screenmates-effects-" + UUID().uuidString)
            _ = try home.prepare()
            let assets = AssetCatalog(directory: RepositoryAssets.directory)
            let store = try home.openStore()
            let catalogue = try assets.appCatalogue()
            let zone = TimeZoneSource.fixed(TimeZone(identifier: "Europe/Berlin")!)
            let choice = ClockSource.Choice(clock: clock, timeZone: zone, published: false)
            _ = try ProfileSetup.ensureProfile(store: store, catalogue: catalogue, clock: choice)
            _ = SettingsFile(home: home).apply(to: store, catalogue: catalogue, create: true)
            try store.setDisplayName(try DisplayName(validating: "ana"))
            let dependencies = DashboardDependencies(
                home: home, store: store, clock: choice, timeZone: zone,
                options: options, assets: assets, catalogue: catalogue, scenario: nil,
                logger: Logger(label: "test"))
            let reader = try FiguresReader(store: store, clock: clock, timeZone: zone)
            effects = DashboardEffectRunner(
                dependencies, reader: reader, screen: screen, inbox: inbox, tasks: tasks)
            state = DashboardState(
                launch: .init(
                    clockSpeed: 1, demo: false, bell: false, desktop: false, catalogue: catalogue.apps,
                    themeFollowsSettings: true),
                figures: reader.figures, moment: DashboardMoment(now: clock.now(), instant: .now), width: 120,
                height: 40, configProblems: [])
        }

        /// Performs `effect` in the fixture's state.
        func perform(_ effect: DashboardEffect) -> [DashboardEvent] { effects.perform(effect, in: state) }

        /// Performs `effect`, then hands what came of it to the update and performs what that
        /// asks for, until nothing follows (what the loop does between two waits).
        func run(_ effect: DashboardEffect) {
            var pending = [effect]
            while !pending.isEmpty {
                let batch = state
                let outcomes = DashboardEffect.coalesced(pending).flatMap { effects.perform($0, in: batch) }
                pending = outcomes.flatMap { DashboardUpdate.update(&state, $0) }
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: home.path) }

        var store: LocalStore { effects.store }
    }

    static func figures(_ events: [DashboardEvent]) -> UsageFigures? {
        for case .numbersRead(let figures, _) in events { return figures }
        return nil
    }

    @Test func aRefreshFindsWhatAnotherWriterRecorded() throws {
        let fixture = try Fixture()
        let app = try #require(try fixture.store.settings()?.viceApps.first)
        let before = try #require(Self.figures(fixture.perform(.readFigures(checkTimeZone: false))))
        try fixture.store.record([
            UsageEvent(
                id: UUID(), appID: app.id, category: .vice, seconds: 900,
                occurredAt: fixture.effects.clock.now().addingTimeInterval(-60))
        ])
        let after = try #require(Self.figures(fixture.perform(.readFigures(checkTimeZone: false))))
        #expect(after.ledger.viceBlocks == before.ledger.viceBlocks + 1)
        #expect(after.eventsApplied == before.eventsApplied + 1)
    }

    @Test func clearingLocalDataForgetsTheProfileAndKeepsTheOldConfigAside() throws {
        let fixture = try Fixture()
        let app = try #require(try fixture.store.settings()?.viceApps.first)
        try fixture.store.record([
            UsageEvent(
                id: UUID(), appID: app.id, category: .vice, seconds: 900,
                occurredAt: fixture.effects.clock.now().addingTimeInterval(-60))
        ])
        let userID = try #require(try fixture.store.settings()?.userID)
        let events = fixture.perform(.clearLocalData)
        guard case .localDataCleared(let figures, _) = events.first else {
            Issue.record("not cleared: \(events)")
            return
        }
        #expect(figures.settings.displayName == nil)
        #expect(figures.settings.userID == userID, "the group store still knows the user")
        #expect(figures.eventsApplied == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.home.path)
        #expect(files.contains { $0.hasPrefix("config.toml.cleared-") }, "\(files)")
        #expect(files.contains("config.toml"), "a fresh config file is written")
    }

    @Test func theRealClockCannotJumpToTheEndOfTheDay() throws {
        let fixture = try Fixture(clock: SystemClock())
        let events = fixture.perform(.endDay)
        guard case .dayNotEnded(let message) = events.first else {
            Issue.record("the day ended: \(events)")
            return
        }
        #expect(message.contains("real clock"))
    }

    @Test func aNewThemeIsSavedAndAppliesToTheScreenAtOnce() throws {
        let fixture = try Fixture()
        var settings = fixture.state.figures.settings
        settings.theme = .dark
        fixture.run(.saveSettings(settings, for: .theme(.dark), confirmation: nil))
        #expect(fixture.screen.themes.count == 1, "the figures read after the save show the new theme")
        #expect(fixture.state.themeShown == .dark)
        #expect(try fixture.store.settings()?.theme == .dark)
        let config = try String(contentsOfFile: fixture.home.path + "/config.toml", encoding: .utf8)
        #expect(config.contains("theme = \"dark\""), "\(config)")
    }

    /// Apps saved in the store but not in the config file (here: a directory stands where the
    /// file goes) say so on the footer, not only in the log.
    @Test func appsTheConfigFileCannotTakeAreSaidOnTheScreen() throws {
        let fixture = try Fixture()
        let config = fixture.home.path + "/" + SettingsFile.fileName
        try FileManager.default.removeItem(atPath: config)
        try FileManager.default.createDirectory(atPath: config + "/x", withIntermediateDirectories: true)
        let apps = try #require(try fixture.store.settings()?.apps)
        #expect(
            fixture.perform(.saveApps(apps)) == [.writeFailed(.apps, warning: "config.toml not saved - see the log")])
        #expect(try fixture.store.settings()?.apps == apps, "the store took them")
        #expect(fixture.perform(.saveName(try DisplayName(validating: "bo"))) == [.saved(.name)])
    }

    /// A save that failed stays on the footer until it is saved: its words name what was not
    /// saved, not how the database is now.
    @Test func aFailedSaveNamesWhatWasNotSaved() {
        #expect(DashboardEffectRunner.notSavedWarning(.name, .busy(path: "x")) == "name not saved - database busy")
        #expect(DashboardEffectRunner.notSavedWarning(.apps, .diskFull(path: "x")) == "apps not saved - disk full")
    }

    /// The settings are saved as the state hands them, in the store and on the change's own
    /// line of the config file.
    @Test func theSettingsAreSavedAsTheStateHasThem() throws {
        let fixture = try Fixture()
        var settings = fixture.state.figures.settings
        settings.rules.dailyGoalBlocks = 5
        #expect(
            fixture.perform(.saveSettings(settings, for: .dailyGoal(5), confirmation: "Goal 5.")) == [
                .settingsSaved(message: "Goal 5.")
            ])
        #expect(try fixture.store.settings() == settings)
        let config = try String(contentsOfFile: fixture.home.path + "/config.toml", encoding: .utf8)
        #expect(config.contains("daily_goal = 5"), "\(config)")
    }

    @Test func aTestNoticeIsShownByTheNextLookAtTheNotices() throws {
        let fixture = try Fixture()
        #expect(fixture.perform(.sendTestNotice) == [.testNoticeSent])
        let looked = fixture.perform(.lookAtNotices(mates: nil))
        guard case .noticesLooked(let outcome) = looked.first else {
            Issue.record("\(looked)")
            return
        }
        #expect(outcome.shown.map(\.notice.kind) == [.test])
        #expect(outcome.lines?.count == 1)
    }

    @Test func theBellRingsOnlyWhenAsked() throws {
        let fixture = try Fixture()
        let notice = Notice(kind: .test, day: LocalDate(iso8601: "2026-11-21")!, title: "Test", body: "body")
        _ = fixture.perform(.deliver([notice], bell: false, desktop: nil))
        #expect(fixture.screen.bells == 0)
        _ = fixture.perform(.deliver([notice], bell: true, desktop: nil))
        #expect(fixture.screen.bells == 1)
        #expect(fixture.screen.sequences.isEmpty)
    }

    /// Outside tmux the terminal says how desktop notices go, at once; inside it tmux is asked
    /// in the background, and the loop's thread does not wait for its answer.
    @Test func howDesktopNoticesGoIsFoundOutAtOnceOrInTheBackground() async throws {
        let outside = try Fixture(options: DashboardOptions(environment: ["TERM": "foot"]))
        #expect(
            outside.perform(.findNoticeCarrier) == [
                .noticeCarrierFound(DesktopNoticeCarrier(kind: .osc777AndOsc9, throughTmux: false))
            ])
        #expect(outside.tasks.count == 0, "nothing is run")
        let inside = try Fixture(
            options: DashboardOptions(environment: ["TMUX": "/nonexistent/tmux-socket,1,0", "TERM": "tmux-256color"]))
        #expect(inside.perform(.findNoticeCarrier).isEmpty, "the answer comes through the inbox")
        var posted: [DashboardEvent] = []
        // Tests running beside this one may hold the threads the answer waits for a while.
        let deadline = ContinuousClock.now + .seconds(120)
        while posted.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            posted = inside.inbox.take()
        }
        guard case .noticeCarrierFound(let carrier) = posted.first, posted.count == 1 else {
            Issue.record("\(posted)")
            return
        }
        #expect(carrier.throughTmux)
        await inside.tasks.finish()
    }

    /// A notice goes to the desktop the way the effect says the terminal carries it.
    @Test func aNoticeForTheDesktopIsWrittenAsItsTerminalCarriesIt() throws {
        let fixture = try Fixture()
        let notice = Notice(kind: .test, day: LocalDate(iso8601: "2026-11-21")!, title: "Test", body: "body")
        let carrier = DesktopNoticeCarrier(kind: .osc777AndOsc9, throughTmux: false)
        _ = fixture.perform(.deliver([notice], bell: false, desktop: carrier))
        #expect(fixture.screen.sequences == [DesktopNotifier.sequences(for: notice, terminal: carrier)])
        #expect(fixture.screen.bells == 0)
    }

    @Test func withoutAGroupThereIsNoLink() throws {
        let fixture = try Fixture()
        #expect(fixture.perform(.connectGroup) == [.groupConnected(nil)])
        #expect(fixture.tasks.count == 0)
    }
}

/// The owner of a session's background tasks.
@Suite struct BackgroundTasksTests {
    @Test func finishCancelsWhatStillRunsAndWaitsForIt() async {
        let tasks = BackgroundTasks()
        let ended = EndedFlag()
        tasks.start {
            try? await Task.sleep(for: .seconds(3600))
            ended.set()
        }
        #expect(tasks.count == 1)
        await tasks.finish()
        #expect(ended.isSet, "the task ran to its end before finish returned")
    }

    @Test func aTaskThatEndsLeavesTheList() async {
        let tasks = BackgroundTasks()
        await tasks.start {}.value
        #expect(tasks.count == 0)
    }

    final class EndedFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}

/// What the debug panel says of the rows left out of the group's snapshot.
@Suite struct LeftOutLinesTests {
    @Test func theDebugPanelNamesWhatWasLeftOut() {
        let lines = DashboardEffectRunner.leftOutLines(
            [
                LeftOutRow(.member, key: "bo234567", reason: "blocks_today is -1; a day holds 0 to 1440"),
                LeftOutRow(.challenge, key: "vzxq58", reason: "At most 0 to 96 blocks a day; -1 is not."),
            ], challenges: [LeftOutChallenge(id: "ab12", reason: "its rule cannot be read")])
        #expect(lines.map(\.0) == ["left out", "  member", "  challenge", "  challenge"])
        #expect(
            lines.map(\.1) == [
                "3 rows that cannot be right, not shown", "bo234567: blocks_today is -1; a day holds 0 to 1440",
                "vzxq58: At most 0 to 96 blocks a day; -1 is not.", "ab12 (this home): its rule cannot be read",
            ])
        #expect(DashboardEffectRunner.leftOutLines([], challenges: []).isEmpty, "nothing said when nothing was")
    }
}
