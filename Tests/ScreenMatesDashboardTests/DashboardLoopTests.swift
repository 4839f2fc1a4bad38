import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesHomeTestSupport
import ScreenMatesStore
import ScreenMatesUI
import ScreenMatesWatch
import Synchronization
import Testing

@testable import ScreenMatesDashboard

/// The dashboard's whole loop without a terminal: keys, resizes, a resume, another process's
/// write and time, each through the real update, the real effects on a real home, and the frame
/// the screen was given, checked as text. Time is virtual (`ScriptedScreen`).
@Suite struct DashboardLoopTests {
    /// A named user's home (no group, no demo) at 12:00:58 in Berlin, with the loop's parts.
    /// Used by one thread at a time (a test, or the loop's own thread while the test awaits it).
    final class Fixture: @unchecked Sendable {
        let home: HomeDirectory
        let clock: ManualClock
        let instants = VirtualInstants()
        let store: LocalStore
        let runner: DashboardEffectRunner
        let inbox = DashboardInbox(wake: {})
        let tasks = BackgroundTasks()
        let screen: ScriptedScreen
        var state: DashboardState

        init(script: [ScriptedScreen.Step], width: Int = 120, height: Int = 40, named: Bool = true) throws {
            let zone = TimeZone(identifier: "Europe/Berlin")!
            let start = TimeFormat.parseInstant("2026-11-21T12:00:58", timeZone: zone)!
            let clock = ManualClock(start)
            self.clock = clock
            home = HomeDirectory(path: NSTemporaryDirectory() + "screenmates-loop-" + UUID().uuidString)
            _ = try home.prepare()
            let assets = AssetCatalog(directory: RepositoryAssets.directory)
            store = try home.openStore()
            let catalogue = try assets.appCatalogue()
            let source = TimeZoneSource.fixed(zone)
            let choice = ClockSource.Choice(clock: clock, timeZone: source, published: false)
            _ = try ProfileSetup.ensureProfile(store: store, catalogue: catalogue, clock: choice)
            _ = SettingsFile(home: home).apply(to: store, catalogue: catalogue, create: true)
            if named { try store.setDisplayName(try DisplayName(validating: "ana")) }
            let instants = self.instants
            screen = ScriptedScreen(
                width: width, height: height, script: script,
                advance: { seconds in
                    clock.advance(by: seconds)
                    instants.advance(by: seconds)
                })
            let reader = try FiguresReader(store: store, clock: clock, timeZone: source)
            runner = DashboardEffectRunner(
                DashboardDependencies(
                    home: home, store: store, clock: choice, timeZone: source, options: DashboardOptions(),
                    assets: assets, catalogue: catalogue, scenario: nil, logger: Logger(label: "test")),
                reader: reader, screen: screen, inbox: inbox, tasks: tasks)
            state = DashboardState(
                launch: .init(clockSpeed: 1, demo: false, bell: false, desktop: false, catalogue: catalogue.apps),
                figures: reader.figures, moment: DashboardMoment(now: start, instant: instants.now()), width: width,
                height: height, configProblems: [])
        }

        deinit { try? FileManager.default.removeItem(atPath: home.path) }

        /// Runs the loop until the script is done (or something ends it); its exit status.
        func run() -> Int32 {
            let instants = self.instants
            let loop = DashboardLoop(
                screen: screen, runner: runner, inbox: inbox,
                watcher: FileNotices(directory: home.path, prefix: home.databaseFileName), clock: clock,
                instant: { instants.now() }, logger: Logger(label: "test"))
            let status = loop.run(&state)
            runner.stopBackground()
            return status
        }

        /// Runs the loop on a thread of its own, as the dashboard does on the main thread, until the
        /// script is done: a script step may then wait for the background work the loop started
        /// without holding a thread that work needs.
        func runOnItsOwnThread() async -> Int32 {
            let status = Mutex<Int32>(0)
            let thread = OwnedThread(name: "dashboard loop") { [self] in
                let ended = self.run()
                status.withLock { $0 = ended }
            }
            await thread.join()
            return status.withLock { $0 }
        }

        /// A block of the first vice app, a minute ago, as a monitor in another process writes it.
        func recordBlock() {
            let store = try! home.openStore()
            let app = try! store.settings()!.viceApps.first!
            _ = try! store.record([
                UsageEvent(
                    id: UUID(), appID: app.id, category: .vice, seconds: 900,
                    occurredAt: clock.now().addingTimeInterval(-60))
            ])
        }
    }

    @Test func theFirstFrameIsTheDashboardAndQQuits() throws {
        let fixture = try Fixture(script: [.keys([.character("q")])])
        #expect(fixture.run() == 0)
        #expect(fixture.screen.frames.count == 1, "nothing changed: one frame")
        #expect(fixture.screen.text.contains("ana"), "\(fixture.screen.text)")
        #expect(fixture.screen.text.contains("12:00"), "the app clock's time in the header")
    }

    @Test func aKeyOpensTheHelpAndEscGoesBack() throws {
        let fixture = try Fixture(script: [.keys([.character("?")]), .keys([.escape]), .keys([.character("q")])])
        #expect(fixture.run() == 0)
        let frames = fixture.screen.frames.map(\.text)
        #expect(frames.count == 3, "the dashboard, the help, the dashboard again")
        #expect(frames[1].contains("─ Help ─"), "\(frames[1])")
        #expect(frames[2] == frames[0])
    }

    @Test func aResizeDrawsAtTheNewSizeAndBelowTheMinimumSaysSo() throws {
        let fixture = try Fixture(script: [.resize(width: 30, height: 8), .resize(width: 80, height: 24)])
        #expect(fixture.run() == 143, "the script's end is a SIGTERM")
        let frames = fixture.screen.frames
        #expect(frames.map(\.width) == [120, 30, 80])
        #expect(frames[1].text.contains("Terminal too small"))
        #expect(!frames[2].text.contains("Terminal too small"))
    }

    /// A block another process writes while the loop waits reaches the next frame: the file
    /// notice wakes the loop, the figures are read again, the frame changes.
    @Test func anotherProcessesWriteReachesTheNextFrame() throws {
        let fixture = try Fixture(script: [])
        fixture.screen.script = [.meanwhile { [unowned fixture] in fixture.recordBlock() }]
        _ = fixture.run()
        #expect(fixture.state.figures.ledger.viceBlocks == 1)
        #expect(fixture.screen.frames.count == 2, "the block changed the frame")
        #expect(fixture.screen.frames[0].text != fixture.screen.frames[1].text)
    }

    /// Back from a suspend, every cell is drawn again (the terminal was someone else's meanwhile)
    /// and the figures are read with the time zone.
    @Test func resumingDrawsTheFrameWholeAgain() throws {
        let fixture = try Fixture(script: [.resume])
        _ = fixture.run()
        #expect(fixture.screen.frames.count == 2)
        #expect(fixture.screen.frames[0].text == fixture.screen.frames[1].text)
    }

    /// The loop sleeps until the minute turns (two seconds at 12:00:58), then at most the safety
    /// interval; the header then shows the new minute.
    @Test func theLoopSleepsUntilTheMinuteTurnsAndDrawsTheNewMinute() throws {
        let fixture = try Fixture(script: [.sleep, .sleep])
        _ = fixture.run()
        let timeouts = fixture.screen.timeouts
        #expect(timeouts.count == 3)
        #expect(abs(timeouts[0] - 2) < 0.001, "\(timeouts)")
        #expect(timeouts[1] == DashboardUpdate.safetyInterval, "\(timeouts)")
        #expect(fixture.screen.text.contains("12:01"), "\(fixture.screen.text)")
    }

    /// The debug panel's test notice, end to end: the keys, the write, the read, the look at the
    /// notices, the toast on the dashboard, which fades after its time.
    @Test func aTestNoticeFromTheDebugPanelShowsAsAToastThatFades() throws {
        let fixture = try Fixture(
            script: [
                .keys([.character("D"), .character("t")]), .keys([.escape]),
            ] + Array(repeating: .sleep, count: 12))
        _ = fixture.run()
        let frames = fixture.screen.frames.map(\.text)
        #expect(frames.contains { $0.contains("· Test notice") }, "the toast")
        #expect(frames.last?.contains("· Test notice") == false, "faded")
        #expect(frames.last?.contains("Test notice  Notifications work.") == true, "the notices pane keeps it")
    }

    /// A save the first-run screens asked for that fails reaches the dashboard: the apps are
    /// stored but the config file cannot take them (a directory stands where it goes). Neither
    /// the read of the figures in the same batch, nor the name saved after it, nor the end of the
    /// first run takes the warning away: the footer still says so on the dashboard.
    @Test func aSaveThatFailsOnTheFirstRunScreensIsSaidOnTheDashboard() throws {
        let fixture = try Fixture(script: [], named: false)
        let config = fixture.home.path + "/" + SettingsFile.fileName
        try FileManager.default.removeItem(atPath: config)
        try FileManager.default.createDirectory(atPath: config + "/x", withIntermediateDirectories: true)
        fixture.screen.script = [
            .keys([.enter]),  // the apps as they are picked
            .keys("bo".map(KeyInput.character) + [.enter]),
            .keys([.down, .down, .enter]),  // no group
            .keys([.character("q")]),
        ]
        #expect(fixture.run() == 0)
        #expect(fixture.state.model.screen == .dashboard)
        #expect(fixture.state.figures.settings.displayName?.value == "bo", "the name was saved")
        #expect(fixture.screen.text.contains("config.toml not saved - see the log"), "\(fixture.screen.text)")
    }

    /// A group created on the group screen is connected to once the figures read after it show
    /// the membership: its outcome and the write it made arrive in one wake, and the connection
    /// is not made from the figures as they were before.
    @Test func aGroupCreatedOnTheGroupScreenIsConnectedTo() async throws {
        let fixture = try Fixture(script: [])
        let tasks = fixture.tasks
        fixture.screen.script = [
            .keys([.character("g")]), .keys([.character("c")]), .keys([.enter]),
            .meanwhile {
                // The group action ends (its write and its outcome) while the loop waits.
                while tasks.count > 0 { usleep(1000) }
            },
        ]
        _ = await fixture.runOnItsOwnThread()
        await fixture.tasks.finish()
        let code = try #require(fixture.state.figures.settings.group?.code)
        #expect(fixture.state.model.groupScreen.message == "Created group \(code). Share the code.")
        #expect(fixture.state.group != nil, "connected to the group just created")
    }

    @Test func aSignalEndsTheLoopWithItsStatus() throws {
        let fixture = try Fixture(script: [.signal(exitStatus: 130)])
        #expect(fixture.run() == 130)
    }
}
