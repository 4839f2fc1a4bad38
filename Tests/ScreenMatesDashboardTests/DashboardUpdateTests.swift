// Over 400 lines on purpose: every kind of event the dashboard's update decides on, in one
// place, as the list of its rules.
import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesGroupSync
import ScreenMatesHomeTestSupport
import ScreenMatesMonitorRuntime
import ScreenMatesUI
import ScreenMatesWatch
import Testing

@testable import ScreenMatesDashboard

/// The dashboard's decisions, event by event, without a terminal: the flows that only the tmux
/// tests drove before (setup, group actions, settings, notices, clearing local data) and the
/// rules for time.
@Suite struct DashboardUpdateTests {
    /// A dashboard state on a real home's figures (a named user, no group), at a fixed moment.
    static func state(
        named: Bool = true, demo: Bool = false, bell: Bool = false, desktop: Bool = false,
        themeFollowsSettings: Bool = false
    ) throws -> DashboardState {
        let scenario = try Scenario(timeZone: "UTC", start: "2026-11-21T12:00:30", trackingStart: "2026-11-21")
        var figures = scenario.feed.figures
        if !named { figures.settings.displayName = nil }
        return DashboardState(
            launch: .init(
                clockSpeed: 1, demo: demo, bell: bell, desktop: desktop, catalogue: figures.settings.apps,
                themeFollowsSettings: themeFollowsSettings),
            figures: figures, moment: moment(0), width: 120, height: 40, configProblems: [])
    }

    static let origin = ContinuousClock.now

    /// The moment `seconds` into the test, on an app clock that started at 12:00:30 UTC.
    static func moment(_ seconds: Double) -> DashboardMoment {
        DashboardMoment(
            now: TimeFormat.parseInstant("2026-11-21T12:00:30", timeZone: TimeZone(identifier: "UTC")!)!
                .addingTimeInterval(seconds),
            instant: origin + .seconds(seconds))
    }

    static func keys(_ keys: [KeyInput], _ state: inout DashboardState) -> [DashboardEffect] {
        keys.flatMap { DashboardUpdate.update(&state, .key($0)) }
    }

    static let group = Group(
        code: try! GroupCode(validating: "K7Q2XM"), dailyGoalBlocks: 8, memberCount: 3,
        createdAt: Date(timeIntervalSince1970: 1_800_000_000))

    // MARK: - Start

    @Test func aHomeWithoutANameStartsOnTheFirstRunScreensAndReadsTheFiguresAtOnce() throws {
        var state = try Self.state(named: false, demo: true)
        let effects = DashboardUpdate.start(&state)
        #expect(state.model.screen == .setup)
        #expect(effects.contains(.readFigures(checkTimeZone: false)), "a notice due at launch is not left for later")
        #expect(!effects.contains(.startDemo), "the demo waits for the first run to finish")
    }

    @Test func aDemoStartsItsMonitorOnTheDashboard() throws {
        var state = try Self.state(demo: true)
        let effects = DashboardUpdate.start(&state)
        #expect(state.model.screen == .dashboard)
        #expect(effects == [.connectGroup, .readFigures(checkTimeZone: false), .startDemo])
        #expect(state.model.data?.source == "demo monitor")
    }

    @Test func finishingTheFirstRunReleasesTheClockThenConnectsAndStartsTheDemo() throws {
        var state = try Self.state(named: false, demo: true)
        _ = DashboardUpdate.start(&state)
        state.model.setup?.step = .done(code: "K7Q2XM", created: true, memberCount: 1)
        let effects = Self.keys([.enter], &state)
        #expect(state.model.screen == .dashboard)
        #expect(effects == [.releaseClock, .readFigures(checkTimeZone: false), .connectGroup, .startDemo])
    }

    // MARK: - Clearing local data

    @Test func clearingIsAskedOnlyAfterTheConfirmation() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(
            Self.keys([.character("D"), .character("x")], &state) == [.gatherDebugFacts],
            "opening the panel gathers its facts; x only asks")
        #expect(state.model.debugPanel.confirmingClear)
        #expect(Self.keys([.character("n")], &state).isEmpty, "any other key keeps everything")
        #expect(state.model.debugPanel.message == "Nothing was cleared.")
        #expect(Self.keys([.character("x"), .character("y")], &state) == [.clearLocalData])
    }

    @Test func clearingIsRefusedWhileAGroupActionRuns() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        state.groupActionsRunning = 1
        let effects = Self.keys([.character("D"), .character("x"), .character("y")], &state)
        #expect(!effects.contains(.clearLocalData))
        #expect(state.model.debugPanel.messageIsError)
        #expect(state.model.debugPanel.message?.contains("group action is still running") == true)
    }

    @Test func aClearedHomeStartsTheFirstRunWithNothingOfTheOldOne() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        state.group = GroupLink.Status(snapshot: nil, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 0)
        state.noticeLines = [.init(at: Self.moment(0).now, title: "old", body: "notice", severity: .warning)]
        state.toasts.add(state.noticeLines)
        var fresh = state.figures
        fresh.settings.displayName = nil
        let effects = DashboardUpdate.update(&state, .localDataCleared(fresh, configProblems: []))
        #expect(state.model.screen == .setup)
        #expect(state.model.setup?.step == .apps)
        #expect(state.group == nil)
        #expect(state.noticeLines.isEmpty)
        #expect(state.model.data?.toast == nil)
        #expect(effects == [.readFigures(checkTimeZone: false)])
    }

    @Test func aRefusedClearKeepsEverythingAndSaysWhy() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = Self.keys([.character("D")], &state)
        _ = DashboardUpdate.update(&state, .localDataKept("Nothing was cleared: disk full."))
        #expect(state.model.screen == .debug)
        #expect(state.model.debugPanel.message == "Nothing was cleared: disk full.")
        #expect(state.model.debugPanel.messageIsError)
    }

    // MARK: - Group actions

    @Test func creatingAGroupRunsInTheBackgroundAndItsOutcomeShowsOnTheGroupScreen() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        let effects = Self.keys([.character("g"), .character("c"), .enter], &state)
        #expect(effects == [.startGroupAction(.create(goal: 8))])
        #expect(state.groupActionsRunning == 1)
        let after = DashboardUpdate.update(&state, .groupActionFinished(.created(Self.group)))
        #expect(state.groupActionsRunning == 0)
        #expect(after == [.readFigures(checkTimeZone: false)], "the figures first: they show the membership")
        #expect(state.model.groupScreen.message == "Created group K7Q2XM. Share the code.")
        #expect(!state.model.groupScreen.messageIsError)
        let failed = StoreReading(warning: "database busy - showing last saved numbers", failure: "locked")
        #expect(!DashboardUpdate.update(&state, .numbersRead(state.figures, failed)).contains(.connectGroup))
        #expect(DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading())).contains(.connectGroup))
        #expect(!DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading())).contains(.connectGroup))
    }

    @Test func aNameTakenInTheGroupSendsTheFirstRunBackToTheName() throws {
        var state = try Self.state(named: false)
        _ = DashboardUpdate.start(&state)
        state.model.setup?.step = .group
        state.groupActionsRunning = 1
        let effects = DashboardUpdate.update(
            &state, .groupActionFinished(.failed(message: "The name ana is taken in this group.", nameTaken: true)))
        #expect(effects.isEmpty)
        #expect(state.model.setup?.step == .name)
        #expect(state.model.setup?.error == "The name ana is taken in this group.")
    }

    @Test func aRefusedJoinIsAnErrorOnTheGroupScreen() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = Self.keys([.character("g")], &state)
        state.groupActionsRunning = 1
        _ = DashboardUpdate.update(
            &state, .groupActionFinished(.failed(message: "No group has that code.", nameTaken: false)))
        #expect(state.model.groupScreen.message == "No group has that code.")
        #expect(state.model.groupScreen.messageIsError)
    }

    @Test func leavingConnectsToNoGroupAndTheHeaderForgetsIt() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        state.group = GroupLink.Status(snapshot: nil, offline: true, problem: nil, lastSyncedAt: nil, unsyncedDays: 0)
        #expect(
            DashboardUpdate.update(&state, .groupActionFinished(.left(Self.group.code))) == [
                .readFigures(checkTimeZone: false)
            ])
        #expect(DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading())).contains(.connectGroup))
        _ = DashboardUpdate.update(&state, .groupConnected(nil))
        #expect(state.group == nil)
        #expect(state.model.data?.source == nil, "no sync note without a group")
    }

    @Test func newFiguresAreReportedToTheGroupOnlyWhileConnected() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        let alone = DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading()))
        #expect(!alone.contains { if case .reportProfile = $0 { true } else { false } })
        _ = DashboardUpdate.update(
            &state,
            .groupConnected(.init(snapshot: nil, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 0)))
        let linked = DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading()))
        #expect(linked.contains(.reportProfile(state.figures.profileDraft!)))
    }

    // MARK: - Settings

    @Test func aSettingsChangeIsSavedAndItsOutcomeShown() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = Self.keys([.character("s")], &state)
        #expect(state.model.screen == .settings)
        let effects = Self.keys([.enter], &state)
        #expect(effects.contains { if case .saveSettings = $0 { true } else { false } }, "\(effects)")
        #expect(
            DashboardUpdate.update(&state, .settingsSaved(message: "Added Chess.")) == [
                .readFigures(checkTimeZone: false)
            ]
        )
        #expect(state.model.settingsScreen?.message == "Added Chess.")
        _ = DashboardUpdate.update(&state, .settingsRefused("Chess is already on your lists."))
        #expect(state.model.settingsScreen?.message == "Chess is already on your lists.")
        #expect(state.model.settingsScreen?.messageIsError == true)
    }

    /// The settings a change makes come from the state, not the store: a second change before
    /// the figures are read again builds on the first; a refusal or a read starts again from
    /// what the store has.
    @Test func aChangeBuildsOnTheStatesSettingsAndOnAChangeNotReadBackYet() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        let apps = state.figures.settings.apps
        #expect(apps.count >= 2)
        _ = DashboardUpdate.changeSettings(.removeApp(id: apps[0].id), &state)
        let second = DashboardUpdate.changeSettings(.removeApp(id: apps[1].id), &state)
        guard case .saveSettings(let settings, .removeApp, nil) = second.first else {
            Issue.record("\(second)")
            return
        }
        #expect(settings.apps == Array(apps.dropFirst(2)), "both apps are gone")
        _ = DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading()))
        let third = DashboardUpdate.changeSettings(.theme(.dark), &state)
        guard case .saveSettings(let afterRead, _, _) = third.first else {
            Issue.record("\(third)")
            return
        }
        #expect(afterRead.apps == apps, "the read shows what the store has")
        #expect(afterRead.theme == .dark)
    }

    @Test func anAppIsAddedFromTheCatalogueOrRefusedAtOnce() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = Self.keys([.character("s")], &state)
        let listed = try #require(state.figures.settings.apps.first)
        #expect(DashboardUpdate.changeSettings(.addApp(name: listed.name, category: .vice), &state).isEmpty)
        #expect(state.model.settingsScreen?.message == "\(listed.name) is already on your lists.")
        #expect(state.model.settingsScreen?.messageIsError == true)
        #expect(DashboardUpdate.changeSettings(.addApp(name: "bad\u{202E}name", category: .vice), &state).isEmpty)
        #expect(state.model.settingsScreen?.message?.contains("type it plainly") == true)
        let added = DashboardUpdate.changeSettings(.addApp(name: "Chess Club", category: .productive), &state)
        guard case .saveSettings(let settings, _, let confirmation) = added.first else {
            Issue.record("\(added)")
            return
        }
        #expect(confirmation == "Added Chess Club.")
        #expect(settings.apps.last?.name == "Chess Club" && settings.apps.last?.category == .productive)
    }

    @Test func theSettingsScreenGathersTheAppsSeenWhenItOpensAndOnEveryWake() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(Self.keys([.character("s")], &state) == [.gatherSeenApps])
        _ = DashboardUpdate.update(&state, .seenApps([.init(name: "Zed", seconds: 600)]))
        #expect(state.model.settingsScreen?.seen == [.init(name: "Zed", seconds: 600)])
        #expect(DashboardUpdate.update(&state, .tick(Self.moment(1), timedOut: false)) == [.gatherSeenApps])
    }

    // MARK: - Notices

    static func outcome(_ titles: [String], at seconds: Double) -> NoticeCenter.Outcome {
        let records = titles.map { title in
            NoticeRecord(
                notice: Notice(
                    kind: .threshold(.warning), day: LocalDate(iso8601: "2026-11-21")!, title: title, body: "body"),
                at: moment(seconds).now, shown: true)
        }
        return NoticeCenter.Outcome(shown: records, lines: records.reversed().map(NoticeCenter.line), nextDue: nil)
    }

    @Test func aNoticeShowsAsAToastThatFadesAndGoes() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = DashboardUpdate.update(&state, .noticesLooked(Self.outcome(["threshold75"], at: 0)))
        #expect(state.model.data?.toast?.notice.title == "threshold75")
        #expect(state.model.data?.toast?.fading == false)
        #expect(state.model.data?.notices.count == 1)
        _ = DashboardUpdate.update(&state, .tick(Self.moment(4.5), timedOut: true))
        #expect(state.model.data?.toast?.fading == true)
        _ = DashboardUpdate.update(&state, .tick(Self.moment(5), timedOut: true))
        #expect(state.model.data?.toast == nil)
    }

    @Test func toastsWaitWhileAnotherScreenIsOpenButTheBellDoesNot() throws {
        var state = try Self.state(bell: true)
        _ = DashboardUpdate.start(&state)
        _ = Self.keys([.character("h")], &state)
        let effects = DashboardUpdate.update(&state, .noticesLooked(Self.outcome(["threshold90"], at: 0)))
        #expect(effects.contains { if case .deliver(_, true, nil) = $0 { true } else { false } })
        #expect(state.model.data?.toast == nil)
        _ = DashboardUpdate.update(&state, .tick(Self.moment(30), timedOut: true))
        #expect(state.model.data?.toast == nil, "still on the history screen")
        _ = Self.keys([.escape], &state)
        #expect(state.model.data?.toast?.notice.title == "threshold90", "shown, whole, on coming back")
    }

    /// How notices reach the desktop is found out once, at the first notice for it (inside tmux
    /// that asks tmux, in the background); the notices wait for it, the bell does not.
    @Test func desktopNoticesWaitForTheTerminalToBeFoundOutAndTheBellDoesNot() throws {
        var state = try Self.state(bell: true, desktop: true)
        _ = DashboardUpdate.start(&state)
        let first = Self.outcome(["threshold75"], at: 0)
        #expect(
            DashboardUpdate.update(&state, .noticesLooked(first)) == [
                .deliver(first.shown.map(\.notice), bell: true, desktop: nil), .findNoticeCarrier,
            ])
        let second = Self.outcome(["threshold90"], at: 1)
        #expect(
            DashboardUpdate.update(&state, .noticesLooked(second)) == [
                .deliver(second.shown.map(\.notice), bell: true, desktop: nil)
            ], "asked once")
        let carrier = DesktopNoticeCarrier(kind: .osc777AndOsc9, throughTmux: true, tmuxPassesThrough: true)
        #expect(
            DashboardUpdate.update(&state, .noticeCarrierFound(carrier)) == [
                .deliver((first.shown + second.shown).map(\.notice), bell: false, desktop: carrier)
            ])
        let third = Self.outcome(["over"], at: 2)
        #expect(
            DashboardUpdate.update(&state, .noticesLooked(third)) == [
                .deliver(third.shown.map(\.notice), bell: true, desktop: carrier)
            ])
    }

    /// The debug panel says how desktop notices go when they are to: it finds that out first.
    @Test func theDebugPanelFindsOutHowDesktopNoticesGo() throws {
        var quiet = try Self.state()
        _ = DashboardUpdate.start(&quiet)
        #expect(Self.keys([.character("D")], &quiet) == [.gatherDebugFacts])
        var desktop = try Self.state(desktop: true)
        _ = DashboardUpdate.start(&desktop)
        #expect(Self.keys([.character("D")], &desktop) == [.findNoticeCarrier, .gatherDebugFacts])
        #expect(DashboardUpdate.update(&desktop, .tick(Self.moment(1), timedOut: false)) == [.gatherDebugFacts])
        let carrier = DesktopNoticeCarrier(kind: .kitty, throughTmux: false)
        #expect(DashboardUpdate.update(&desktop, .noticeCarrierFound(carrier)) == [.gatherDebugFacts])
    }

    @Test func withoutBellOrDesktopNothingIsDeliveredBeyondTheScreen() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(DashboardUpdate.update(&state, .noticesLooked(Self.outcome(["threshold75"], at: 0))).isEmpty)
    }

    @Test func theFiguresBringALookAtTheNoticesExceptDuringTheFirstRun() throws {
        var named = try Self.state()
        _ = DashboardUpdate.start(&named)
        #expect(
            DashboardUpdate.update(&named, .numbersRead(named.figures, StoreReading())).contains(
                .lookAtNotices(mates: nil)))
        var unnamed = try Self.state(named: false)
        _ = DashboardUpdate.start(&unnamed)
        let effects = DashboardUpdate.update(&unnamed, .numbersRead(unnamed.figures, StoreReading()))
        #expect(!effects.contains { if case .lookAtNotices = $0 { true } else { false } }, "\(effects)")
    }

    @Test func aTestNoticeIsConfirmedOnThePanelAndLookedFor() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(Self.keys([.character("D"), .character("t")], &state).last == .sendTestNotice)
        #expect(
            DashboardUpdate.update(&state, .testNoticeSent) == [
                .readFigures(checkTimeZone: false), .gatherDebugFacts,
            ])
        #expect(state.model.debugPanel.message == "Sent a test notice: it shows on the dashboard (esc).")
    }

    /// The panel's message and the facts it speaks of (the new day) reach the screen in one
    /// frame: the facts are gathered again before the loop draws, not at the next tick.
    @Test func theEndOfTheDayIsConfirmedWithThePanelsFactsGatheredAgain() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(Self.keys([.character("D"), .character("e")], &state).last == .endDay)
        let midnight = TimeFormat.parseInstant("2026-11-22T00:00", timeZone: TimeZone(identifier: "UTC")!)!
        #expect(
            DashboardUpdate.update(&state, .dayEnded(clock: midnight)) == [
                .readFigures(checkTimeZone: false), .gatherDebugFacts,
            ])
        #expect(
            state.model.debugPanel.message
                == "The day is over: the clock moved to 00:00 and 2026-11-22 has begun. Its notices show on the dashboard (esc)."
        )
        #expect(DashboardUpdate.update(&state, .dayNotEnded("No.")) == [.gatherDebugFacts])
    }

    /// The demo's monitor writes nothing on a day that is ending: it stops before the clock
    /// moves and starts again on the new day, or where it was when the clock could not move.
    @Test func theDemoStopsWhileTheDayEndsAndGoesOnAfter() throws {
        var state = try Self.state(demo: true)
        _ = DashboardUpdate.start(&state)
        #expect(state.demoRunning)
        #expect(Self.keys([.character("D"), .character("e")], &state).suffix(2) == [.stopDemo, .endDay])
        let midnight = TimeFormat.parseInstant("2026-11-22T00:00", timeZone: TimeZone(identifier: "UTC")!)!
        #expect(
            DashboardUpdate.update(&state, .dayEnded(clock: midnight)) == [
                .readFigures(checkTimeZone: false), .startDemo, .gatherDebugFacts,
            ])
        #expect(DashboardUpdate.update(&state, .dayNotEnded("No.")) == [.startDemo, .gatherDebugFacts])
    }

    /// Clearing stops what writes in the background first; kept data gets it back.
    @Test func clearingStopsTheDemoAndTheGroupLinkAndAFailedClearStartsThemAgain() throws {
        var state = try Self.state(demo: true)
        _ = DashboardUpdate.start(&state)
        state.group = GroupLink.Status(snapshot: nil, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 0)
        let effects = Self.keys([.character("D"), .character("x"), .character("y")], &state)
        #expect(effects.suffix(3) == [.stopDemo, .disconnectGroup, .clearLocalData], "\(effects)")
        let kept = DashboardUpdate.update(&state, .localDataKept("Nothing was cleared: disk full"))
        #expect(kept.contains(.startDemo) && kept.contains(.connectGroup), "\(kept)")
        #expect(state.model.debugPanel.message == "Nothing was cleared: disk full")
    }

    // MARK: - The demo's mates

    static let demoStore = GroupStoreLocation.sqlite(path: "/home/ana/.screenmates/demo-group.sqlite")

    /// A demo with mates, for a user in `group` (none: no group).
    static func matesState(group: GroupMembership? = nil) throws -> DashboardState {
        var state = try Self.state(demo: true)
        state.launch.groupStores.demo = demoStore
        state.figures.settings.group = group
        return state
    }

    /// A user in no group gets one in the demo's store when the demo starts (a group action like
    /// any other); the mates join it once the figures show it and it is connected to.
    @Test func theDemoMakesAGroupForItsMatesAndTheyJoinItOnceItIsConnectedTo() throws {
        var state = try Self.matesState()
        let effects = DashboardUpdate.start(&state)
        #expect(effects.contains(.startGroupAction(.create(goal: state.figures.settings.rules.dailyGoalBlocks))))
        #expect(!effects.contains { if case .startMates = $0 { true } else { false } })
        #expect(state.makingDemoGroup && state.groupActionsRunning == 1)
        let midnight = TimeFormat.parseInstant("2026-11-22T00:00", timeZone: TimeZone(identifier: "UTC")!)!
        #expect(
            !DashboardUpdate.update(&state, .dayEnded(clock: midnight)).contains { effect in
                if case .startGroupAction = effect { true } else { false }
            }, "one group is being made")
        _ = DashboardUpdate.update(&state, .groupActionFinished(.created(Self.group)))
        #expect(state.groupActionsRunning == 0)
        var figures = state.figures
        figures.settings.group = GroupMembership(
            code: Self.group.code, dailyGoalBlocks: 8, store: Self.demoStore.remembered)
        let read = DashboardUpdate.update(&state, .numbersRead(figures, StoreReading()))
        #expect(read.contains(.startMates(Self.group.code)) && read.contains(.connectGroup), "\(read)")
        #expect(state.matesGroup == Self.group.code)
        #expect(!DashboardUpdate.update(&state, .storeReopened).contains(.startMates(Self.group.code)), "running")
    }

    /// A home in a group elsewhere keeps it: no mates, and the footer says why.
    @Test func theDemoBringsNoMatesIntoAGroupElsewhere() throws {
        var state = try Self.matesState(
            group: GroupMembership(code: Self.group.code, dailyGoalBlocks: 8, store: "/srv/friends.sqlite"))
        let effects = DashboardUpdate.start(&state)
        #expect(!effects.contains { if case .startMates = $0 { true } else { false } })
        #expect(!effects.contains { if case .startGroupAction = $0 { true } else { false } })
        #expect(effects.contains { if case .log(let line) = $0 { line.level == .notice } else { false } })
        #expect(state.model.data?.warning == "no demo mates: this home is in group K7Q2XM elsewhere")
        var named = try Self.matesState()
        named.launch.groupStores.named = Self.demoStore
        #expect(named.launch.groupStores.isDemo(remembered: "/srv/friends.sqlite"), "every group is in the named store")
    }

    /// Leaving the demo's group takes the mates out; so does clearing the home.
    @Test func theMatesLeaveWithTheUserAndWhenTheHomeIsCleared() throws {
        let membership = GroupMembership(code: Self.group.code, dailyGoalBlocks: 8, store: Self.demoStore.remembered)
        var leaving = try Self.matesState(group: membership)
        #expect(DashboardUpdate.start(&leaving).contains(.startMates(Self.group.code)))
        _ = DashboardUpdate.update(&leaving, .groupActionFinished(.left(Self.group.code)))
        var left = leaving.figures
        left.settings.group = nil
        let read = DashboardUpdate.update(&leaving, .numbersRead(left, StoreReading()))
        #expect(read.contains(.stopMates) && read.contains(.connectGroup), "\(read)")
        #expect(leaving.matesGroup == nil)
        var clearing = try Self.matesState(group: membership)
        _ = DashboardUpdate.start(&clearing)
        let effects = Self.keys([.character("D"), .character("x"), .character("y")], &clearing)
        #expect(effects.suffix(3) == [.stopDemo, .stopMates, .clearLocalData], "\(effects)")
        let kept = DashboardUpdate.update(&clearing, .localDataKept("Nothing was cleared: disk full"))
        #expect(kept.contains(.startMates(Self.group.code)), "back with the demo: \(kept)")
    }

    @Test func aTestNoticeThatCannotBeRecordedIsSaidOnThePanel() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = Self.keys([.character("D")], &state)
        _ = DashboardUpdate.update(&state, .testNoticeFailed("database busy"))
        #expect(state.model.debugPanel.message == "No test notice: database busy")
    }

    // MARK: - Time

    @Test func onlyTimeWakingTheLoopReadsTheFiguresAgain() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(
            DashboardUpdate.update(&state, .tick(Self.moment(1), timedOut: true)) == [
                .readFigures(checkTimeZone: false)
            ])
        #expect(DashboardUpdate.update(&state, .tick(Self.moment(2), timedOut: false)).isEmpty)
    }

    @Test func anotherProcessesWriteIsLookedAtAgainAMomentLater() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(DashboardUpdate.update(&state, .databaseWritten) == [.readFigures(checkTimeZone: false)])
        #expect(
            state.rechecks.count == RecheckSchedule.afterNotice.count - 1, "the first look is the one just asked for")
        #expect(DashboardUpdate.secondsUntilWake(state, at: Self.moment(0)) == 0.02)
        #expect(
            DashboardUpdate.update(&state, .tick(Self.moment(0.02), timedOut: false)) == [
                .readFigures(checkTimeZone: false)
            ])
        #expect(state.rechecks.count == RecheckSchedule.afterNotice.count - 2)
    }

    @Test func theTimeZoneIsAskedForAgainEveryMinute() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(
            DashboardUpdate.update(&state, .tick(Self.moment(59), timedOut: false)) == [.releaseStartupPages],
            "no zone yet (the start-up pages are handed back at the first wake past three seconds)")
        #expect(
            DashboardUpdate.update(&state, .tick(Self.moment(60), timedOut: false)) == [
                .readFigures(checkTimeZone: true)
            ])
        #expect(DashboardUpdate.update(&state, .tick(Self.moment(61), timedOut: false)).isEmpty)
    }

    @Test func theStartUpPagesAreHandedBackOnceAFewSecondsAfterTheStart() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(DashboardUpdate.update(&state, .tick(Self.moment(2.9), timedOut: false)).isEmpty)
        #expect(DashboardUpdate.update(&state, .tick(Self.moment(3), timedOut: false)) == [.releaseStartupPages])
        #expect(DashboardUpdate.update(&state, .tick(Self.moment(8), timedOut: false)).isEmpty, "once")
    }

    @Test func theLoopSleepsUntilTheNextMinuteAtMostFiveSecondsAndNeverSpins() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        // 12:00:30 + 27 s: 3 s to the next minute.
        #expect(abs(DashboardUpdate.secondsUntilWake(state, at: Self.moment(27)) - 3) < 1e-9)
        #expect(DashboardUpdate.secondsUntilWake(state, at: Self.moment(0)) == DashboardUpdate.safetyInterval)
        state.launch.clockSpeed = 6000
        #expect(DashboardUpdate.secondsUntilWake(state, at: Self.moment(0)) == DashboardUpdate.minimumInterval)
    }

    @Test func rRepaintsEveryCellAndReadsTheFiguresWithTheTimeZone() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        let model = state.model
        #expect(Self.keys([.character("r")], &state) == [.repaintAll, .readFigures(checkTimeZone: true)])
        #expect(state.repaints == 1, "drawn whole although nothing on it changed")
        #expect(state.model == model)
    }

    // MARK: - Challenges, coins and the group's weeks

    @Test func theChallengesScreenOpensWithCAndItsRequestsAreDoneInTheBackground() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = DashboardUpdate.update(&state, .gamesRead(GamesData(coins: 40, inGroup: false)))
        #expect(Self.keys([.character("c")], &state).isEmpty)
        #expect(state.model.screen == .challenges)
        let effects = Self.keys([.character("c"), .enter], &state)
        guard case .gameAction(.create(let request)) = effects.last else {
            Issue.record("no challenge asked for: \(effects)")
            return
        }
        #expect(!request.shared, "outside a group a challenge is the user's own")
        #expect(state.model.games.challenges.busy)
        let after = DashboardUpdate.update(
            &state, .gameActionFinished(message: "Challenge k2m9 starts tomorrow.", error: false))
        #expect(
            after == [
                .settleChallenges, .watchOpenChallenges, .gatherGames, .pokeGames, .readFigures(checkTimeZone: false),
            ]
        )
        #expect(
            DashboardEffect.coalesced(after) == [
                .settleChallenges, .watchOpenChallenges, .readFigures(checkTimeZone: false), .gatherGames, .pokeGames,
            ], "decided before the games are read; a challenge open to all joined is watched")
        #expect(state.model.games.challenges.message == "Challenge k2m9 starts tomorrow.")
        #expect(!state.model.games.challenges.busy)
    }

    @Test func theCoinsShowInTheHeaderOnceRead() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(state.model.data?.games == nil)
        _ = DashboardUpdate.update(&state, .gamesRead(GamesData(coins: 40)))
        #expect(state.model.data?.games?.coins == 40)
        let frame = ScreenRenderer.render(state.model)
        #expect(frame.line(0).contains("40 coins"), "\(frame.line(0))")
    }

    @Test func newBlocksOrANewDayAskTheGamesToBeExchangedAndReadAgain() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        let first = DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading()))
        #expect(first.contains(.pokeGames) && first.contains(.gatherGames))
        let same = DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading()))
        #expect(!same.contains(.pokeGames) && !same.contains(.gatherGames), "nothing changed")
        var more = state.figures
        more.eventsApplied += 1
        #expect(DashboardUpdate.update(&state, .numbersRead(more, StoreReading())).contains(.gatherGames))
    }

    @Test func anExchangeBringsALookAtTheNotices() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        var status = GroupLink.Status(snapshot: nil, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 0)
        #expect(DashboardUpdate.update(&state, .groupChanged(status)) == [.readFigures(checkTimeZone: false)])
        status.games = GroupGamesSnapshot(
            boards: [], coins: [], rules: .standard, weeks: [], fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(
            DashboardUpdate.update(&state, .groupChanged(status)) == [
                .readFigures(checkTimeZone: false), .gatherGames, .lookAtNotices(mates: nil),
            ])
        status.offline = true
        #expect(DashboardUpdate.update(&state, .groupChanged(status)).contains(.gatherGames), "offline is shown")
    }

    // MARK: - The store, the theme

    /// A store opened read-only is opened again once nothing stops writes, at most every five
    /// seconds, with the demo and the group link stopped meanwhile and started again after.
    @Test func aStoreThatCanBeWrittenAgainIsReopenedWithTheBackgroundStoppedMeanwhile() throws {
        var state = try Self.state(demo: true)
        _ = DashboardUpdate.start(&state)
        state.group = GroupLink.Status(snapshot: nil, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 0)
        let reopenable = StoreReading(warning: nil, failure: nil, reopenable: true)
        #expect(
            DashboardUpdate.update(&state, .numbersRead(state.figures, reopenable)) == [
                .stopDemo, .disconnectGroup, .reopenStore,
            ])
        _ = DashboardUpdate.update(&state, .tick(Self.moment(4), timedOut: false))
        #expect(!DashboardUpdate.update(&state, .numbersRead(state.figures, reopenable)).contains(.reopenStore))
        #expect(
            DashboardUpdate.update(&state, .storeReopened) == [
                .readFigures(checkTimeZone: false), .startDemo, .connectGroup,
            ])
        _ = DashboardUpdate.update(&state, .tick(Self.moment(5), timedOut: false))
        #expect(DashboardUpdate.update(&state, .numbersRead(state.figures, reopenable)).contains(.reopenStore))
    }

    /// The daily prune (`prune_keep_days`) is asked for by the first read of each day whose
    /// settings ask for one, not by a read that failed.
    @Test func theDailyPruneIsAskedForOnceADay() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        #expect(!DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading())).contains(.prune), "off")
        var figures = state.figures
        figures.settings.pruneKeepDays = 30
        let failed = StoreReading(warning: "database busy - showing last saved numbers", failure: "locked")
        #expect(!DashboardUpdate.update(&state, .numbersRead(figures, failed)).contains(.prune))
        #expect(DashboardUpdate.update(&state, .numbersRead(figures, StoreReading())).contains(.prune))
        #expect(!DashboardUpdate.update(&state, .numbersRead(figures, StoreReading())).contains(.prune), "once")
        figures.today = figures.today.adding(days: 1)
        #expect(DashboardUpdate.update(&state, .numbersRead(figures, StoreReading())).contains(.prune), "a new day")
    }

    @Test func aReadThatFailsIsLoggedOnceAndItsWarningShown() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        let failed = StoreReading(warning: "database busy - showing last saved numbers", failure: "locked")
        #expect(
            DashboardUpdate.update(&state, .numbersRead(state.figures, failed)).contains(
                .log(.init(level: .error, message: "reading the figures failed: locked"))))
        #expect(state.model.data?.warning == "database busy - showing last saved numbers")
        #expect(
            !DashboardUpdate.update(&state, .numbersRead(state.figures, failed)).contains { effect in
                if case .log = effect { true } else { false }
            })
    }

    /// What a key asked to save and was not saved stays on the footer through the reads of the
    /// figures that follow (the one in the same batch among them) until that very thing is
    /// saved; a read that finds a problem of its own says it first, while it lasts.
    @Test func aFailedSaveStaysOnTheFooterUntilItIsSaved() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        _ = DashboardUpdate.update(&state, .writeFailed(.apps, warning: "config.toml not saved - see the log"))
        _ = DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading()))
        #expect(state.model.data?.warning == "config.toml not saved - see the log")
        _ = DashboardUpdate.update(&state, .saved(.name))
        #expect(state.model.data?.warning == "config.toml not saved - see the log", "the name is not the apps")
        let busy = StoreReading(warning: "database busy - showing last saved numbers", failure: "locked")
        _ = DashboardUpdate.update(&state, .numbersRead(state.figures, busy))
        #expect(state.model.data?.warning == "database busy - showing last saved numbers")
        _ = DashboardUpdate.update(&state, .numbersRead(state.figures, StoreReading()))
        #expect(state.model.data?.warning == "config.toml not saved - see the log")
        _ = DashboardUpdate.update(&state, .saved(.apps))
        #expect(state.model.data?.warning == nil)
    }

    /// A theme chosen in the settings (here, or by another program in the config file) is drawn
    /// in once the figures show it; one named on the command line stays.
    @Test func theThemeFollowsTheSettingsUnlessOneWasNamed() throws {
        var following = try Self.state(themeFollowsSettings: true)
        _ = DashboardUpdate.start(&following)
        var figures = following.figures
        figures.settings.theme = .dark
        #expect(DashboardUpdate.update(&following, .numbersRead(figures, StoreReading())).contains(.applyTheme(.dark)))
        _ = DashboardUpdate.update(&following, .themeApplied(.dark, problem: nil))
        #expect(!DashboardUpdate.update(&following, .numbersRead(figures, StoreReading())).contains(.applyTheme(.dark)))
        var named = try Self.state()
        _ = DashboardUpdate.start(&named)
        #expect(!DashboardUpdate.update(&named, .numbersRead(figures, StoreReading())).contains(.applyTheme(.dark)))
    }

    @Test func aWeekAboutToCloseWithDaysNotSentIsSaidOnTheDashboard() throws {
        var state = try Self.state()
        _ = DashboardUpdate.start(&state)
        var games = GamesData(coins: 0, inGroup: true)
        games.week = .init(
            rules: .standard, current: LocalDate(iso8601: "2026-11-16")!,
            reminder: "2 days not sent: sync before the week closes", weeks: [])
        _ = DashboardUpdate.update(&state, .gamesRead(games))
        #expect(state.model.data?.warning == "2 days not sent: sync before the week closes")
        _ = DashboardUpdate.update(&state, .writeFailed(.name, warning: "name not saved - disk full"))
        #expect(state.model.data?.warning == "name not saved - disk full", "a store problem comes first")
    }

    // MARK: - The end

    @Test func qQuitsAndASignalEndsWithItsStatusAndNothingHappensAfter() throws {
        var quitting = try Self.state()
        _ = DashboardUpdate.start(&quitting)
        _ = Self.keys([.character("q")], &quitting)
        #expect(quitting.exitStatus == 0)
        var ended = try Self.state()
        _ = DashboardUpdate.start(&ended)
        _ = DashboardUpdate.update(&ended, .ended(exitStatus: 143))
        #expect(ended.exitStatus == 143)
        #expect(Self.keys([.character("D"), .character("x"), .character("y")], &ended).isEmpty)
        #expect(ended.model.screen == .dashboard)
    }

    // MARK: - Effects in a batch

    @Test func theRefreshesOfOneBatchAreOneReadOfTheStore() {
        let effects: [DashboardEffect] = [
            .readFigures(checkTimeZone: false), .startDemo, .readFigures(checkTimeZone: true),
            .lookAtNotices(mates: nil),
            .lookAtNotices(mates: nil), .startGroupAction(.leave), .startGroupAction(.leave),
        ]
        #expect(
            DashboardEffect.coalesced(effects) == [
                .startDemo, .lookAtNotices(mates: nil), .readFigures(checkTimeZone: true), .startGroupAction(.leave),
                .startGroupAction(.leave),
            ])
    }

    /// A tick's refresh and a save asked for by a key in the same batch: the save comes first,
    /// so the one read sees it; what reads for a panel comes after the read.
    @Test func writesInABatchComeBeforeTheRefreshThatReadsThem() {
        let effects: [DashboardEffect] = [
            .readFigures(checkTimeZone: false), .gatherSeenApps, .saveApps([]), .readFigures(checkTimeZone: false),
        ]
        #expect(
            DashboardEffect.coalesced(effects) == [.saveApps([]), .readFigures(checkTimeZone: false), .gatherSeenApps])
    }
}
