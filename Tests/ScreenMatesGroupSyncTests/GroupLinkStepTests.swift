import Foundation
import ScreenMatesCore
import ScreenMatesGroupStore
import ScreenMatesTestSupport
import Testing

@testable import ScreenMatesGroupSync

/// The group link's decisions, case by case, without a store: each event in, the effects out
/// (written short: "open", "look(whole)", "exchange(writing, settling)"…), and the status the
/// screen is told.
@Suite struct GroupLinkStepTests {
    static let monday = LocalDate(iso8601: "2026-11-23")!
    static let noon = Date(timeIntervalSince1970: 1_795_000_000)
    static let code = try! GroupCode(validating: "ABCDEF")
    static let draft = ProfileDraft(
        displayName: try! DisplayName(validating: "ana"), blocksToday: 3, day: monday, streak: 1, lastActive: noon)
    static let unreachable = GroupStoreError.unavailable(location: "db", detail: "connection refused")
    static let locked = GroupStoreError.busy(location: "db", detail: "the group is locked")

    static func snapshot(mark: Int64, blocks: Int = 3) -> GroupSnapshot {
        let ana = MemberProfile(
            userID: UserID("ana23456"), displayName: try! DisplayName(validating: "ana"), blocksToday: blocks,
            day: monday, streak: 1, lastActive: noon, lastUpdated: noon, version: 1)
        return GroupSnapshot(
            group: Group(code: code, dailyGoalBlocks: 8, memberCount: 1, createdAt: noon), members: [ana], day: monday,
            fetchedAt: noon, mark: mark)
    }

    static func look(mark: Int64, changed: Bool = true, whole: Bool = true, blocksOf blocks: Int = 3) -> GroupLook {
        GroupLook(
            snapshot: snapshot(mark: mark, blocks: blocks), whole: whole, membersRead: [], sumsRead: 0,
            changed: changed)
    }

    static let games = GroupGamesSnapshot(boards: [], coins: [], rules: .standard, weeks: [], fetchedAt: noon)

    /// A look made as the first one: the store opened, the profile and a day sent, the group read
    /// whole at mark 5 and the games exchanged.
    static func linkAfterAFirstLook() -> GroupLinkStep {
        var step = GroupLinkStep(
            status: GroupLink.Status(
                snapshot: nil, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 1))
        _ = step.step(.trigger(.changed, draft: draft, today: monday, gamesDay: monday))
        _ = step.step(.opened)
        _ = step.step(.profileSent(version: 1, at: noon))
        _ = step.step(.daysSent([monday.adding(days: -1)]))
        _ = step.step(.looked(look(mark: 5), following: nil))
        _ = step.step(.gamesExchanged(games, waiting: nil))
        return step
    }

    @Test func aFirstLookOpensTheStoreReportsSendsTheDaysReadsTheGroupWholeAndExchangesTheGames() {
        var step = GroupLinkStep(
            status: GroupLink.Status(
                snapshot: nil, offline: false, problem: nil, lastSyncedAt: nil, unsyncedDays: 1))
        #expect(
            names(step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday)))
                == ["open"])
        #expect(names(step.step(.opened)) == ["sendProfile"])
        #expect(names(step.step(.profileSent(version: 7, at: Self.noon))) == ["recordSent(7)", "sendDays"])
        #expect(names(step.step(.daysSent([Self.monday.adding(days: -1)]))) == ["markSent(1)", "look(whole)"])
        #expect(
            names(step.step(.looked(Self.look(mark: 5), following: .live)))
                == ["log(debug)", "logLeftOut", "exchange(writing, settling)"])
        let end = step.step(.gamesExchanged(Self.games, waiting: nil))
        #expect(names(end) == ["logLeftOut", "publish", "cache"])
        let status = step.status
        #expect(status.snapshot?.mark == 5)
        #expect(status.games == Self.games)
        #expect(status.lastSyncedAt == Self.noon)
        #expect(status.unsyncedDays == 0)
        #expect(status.following == .live)
        #expect(!status.offline && !status.busy && status.problem == nil)
        #expect(step.failures == 0)
    }

    @Test func aMatesChangeReadsWhatChangedSendsNoSameProfileAndExchangesNoGamesUnlessTheMarkMoved() {
        var step = Self.linkAfterAFirstLook()
        #expect(
            names(step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday)))
                == ["sendDays"], "the profile reported is not sent again")
        #expect(names(step.step(.daysSent([]))) == ["look(since 5)"])
        #expect(
            names(step.step(.looked(Self.look(mark: 5, changed: false, whole: false), following: nil)))
                == ["log(debug)"], "nothing changed: no games, nothing told, nothing cached")
        #expect(step.look == nil, "the look ended")

        _ = step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        _ = step.step(.daysSent([]))
        #expect(
            names(step.step(.looked(Self.look(mark: 6, whole: false), following: nil)))
                == ["log(debug)", "logLeftOut", "exchange(writing)"],
            "the mark moved: the games are exchanged, without settling the weeks again the same day")
    }

    @Test func aPokeExchangesTheGamesWhateverTheMarkSaysAndSettlesTheWeeks() {
        var step = Self.linkAfterAFirstLook()
        _ = step.step(.trigger(.poke, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        _ = step.step(.daysSent([]))
        #expect(
            names(step.step(.looked(Self.look(mark: 5, changed: false), following: nil)))
                == ["log(debug)", "exchange(writing, settling)"])
    }

    @Test func theWeeksAreSettledOnceADayByEachMemberAndWhenDaysWereSent() {
        var step = Self.linkAfterAFirstLook()
        let tuesday = Self.monday.adding(days: 1)
        _ = step.step(.trigger(.changed, draft: Self.draft, today: tuesday, gamesDay: tuesday))
        _ = step.step(.daysSent([]))
        #expect(names(step.step(.looked(Self.look(mark: 6), following: nil))).last == "exchange(writing, settling)")
        _ = step.step(.gamesExchanged(Self.games, waiting: nil))
        #expect(step.settledOn == tuesday)

        _ = step.step(.trigger(.changed, draft: Self.draft, today: tuesday, gamesDay: tuesday))
        _ = step.step(.daysSent([Self.monday]))
        #expect(
            names(step.step(.looked(Self.look(mark: 7), following: nil))).last == "exchange(writing, settling)",
            "a day sent may close a pending week")
    }

    @Test func aProfileTheStoreRefusesIsSaidOnTheScreenNotSentAgainAndTheGroupStillRead() {
        var step = Self.linkAfterAFirstLook()
        var renamed = Self.draft
        renamed.blocksToday = 4
        #expect(
            names(step.step(.trigger(.report, draft: renamed, today: Self.monday, gamesDay: Self.monday)))
                == ["sendProfile"])
        let taken = GroupStoreError.nameTaken(try! DisplayName(validating: "ana"))
        #expect(names(step.step(.failed(taken))) == ["log(error)", "sendDays"], "the days still go")
        _ = step.step(.daysSent([]))
        let end = step.step(.looked(Self.look(mark: 5, changed: false, whole: false), following: nil))
        #expect(names(end) == ["log(debug)", "publish"])
        #expect(step.status.problem == taken.message)
        #expect(!step.status.busy && !step.status.offline)
        #expect(step.failures == 0, "a refusal is not tried again on a timer")
        #expect(
            names(step.step(.trigger(.changed, draft: renamed, today: Self.monday, gamesDay: Self.monday)))
                == ["sendDays"], "the refused profile waits for the next change")
    }

    @Test func aProfileTheStoreCannotTakeNowHoldsTheOtherWritesButTheGroupIsReadAndTriedAgain() {
        var step = Self.linkAfterAFirstLook()
        var changed = Self.draft
        changed.blocksToday = 5
        _ = step.step(.trigger(.report, draft: changed, today: Self.monday, gamesDay: Self.monday))
        #expect(names(step.step(.failed(Self.locked))) == ["look(since 5)"], "no days sent behind the same lock")
        #expect(
            names(step.step(.looked(Self.look(mark: 6), following: nil)))
                == ["log(debug)", "logLeftOut", "exchange()"], "the games only read")
        let end = step.step(.gamesExchanged(Self.games, waiting: nil))
        #expect(names(end) == ["logLeftOut", "publish", "cache", "log(warning)", "retry(1)"])
        #expect(step.status.busy && !step.status.offline, "the board stays live, the report waits")
        #expect(step.gamesOwed, "the games owe a write: the next look exchanges them whatever the mark")
        #expect(
            names(step.step(.trigger(.retry, draft: changed, today: Self.monday, gamesDay: Self.monday)))
                == ["sendProfile"], "the retry sends the profile again")
    }

    @Test func aStoreOutOfReachIsOfflineAndTriedAgainLaterEachTime() {
        var step = Self.linkAfterAFirstLook()
        _ = step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        _ = step.step(.daysSent([]))
        let first = step.step(.failed(Self.unreachable))
        #expect(names(first) == ["log(warning)", "dropStore", "publish", "retry(1)"])
        #expect(step.status.offline)
        #expect(step.status.snapshot?.mark == 5, "the board keeps the group it had")
        #expect(
            names(step.step(.trigger(.retry, draft: Self.draft, today: Self.monday, gamesDay: Self.monday)))
                == ["open"])
        #expect(names(step.step(.failed(Self.unreachable))) == ["dropStore", "retry(2)"], "said once, waited longer")
        _ = step.step(.trigger(.retry, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        #expect(names(step.step(.opened)) == ["sendDays"])
        _ = step.step(.daysSent([]))
        #expect(
            names(step.step(.looked(Self.look(mark: 9), following: nil))).last == "exchange(writing, settling)",
            "back: the group read whole, the games exchanged afresh")
        #expect(names(step.step(.gamesExchanged(Self.games, waiting: nil))) == ["logLeftOut", "publish", "cache"])
        #expect(!step.status.offline)
        #expect(step.failures == 0)
    }

    @Test func aGroupThatCannotBeReadNowIsBusyNotOffline() {
        var step = Self.linkAfterAFirstLook()
        _ = step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        _ = step.step(.daysSent([]))
        #expect(names(step.step(.failed(Self.locked))) == ["log(warning)", "publish", "retry(1)"])
        #expect(step.status.busy && !step.status.offline)
        #expect(step.storeOpen, "the store stays open")
    }

    @Test func aStoreThatRefusesTheLookIsAProblemToFixNotARetry() {
        var step = Self.linkAfterAFirstLook()
        _ = step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        _ = step.step(.daysSent([]))
        let refused = GroupStoreError.unusable(location: "db", detail: "permission denied for schema screenmates")
        #expect(names(step.step(.failed(refused))) == ["log(error)", "publish"])
        #expect(step.status.problem == "group store: permission denied for schema screenmates")
        #expect(!step.status.offline)
    }

    @Test func aSyncSendsTheProfileAgainAndReadsTheGroupWhole() {
        var step = Self.linkAfterAFirstLook()
        #expect(
            names(step.step(.trigger(.sync, draft: Self.draft, today: Self.monday, gamesDay: Self.monday)))
                == ["sendProfile"])
        _ = step.step(.profileSent(version: 2, at: Self.noon))
        #expect(names(step.step(.daysSent([]))) == ["look(whole)"])
        #expect(
            names(step.step(.looked(Self.look(mark: 5), following: nil))).last == "exchange(writing, settling)")
    }

    @Test func gamesTheStoreRefusesAreLoggedAndTheGroupStays() {
        var step = Self.linkAfterAFirstLook()
        _ = step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        _ = step.step(.daysSent([]))
        _ = step.step(.looked(Self.look(mark: 8, whole: false, blocksOf: 6), following: nil))
        let end = step.step(.failed(.invalidValue("a challenge that cannot be right")))
        #expect(names(end) == ["log(error)", "publish", "cache"])
        #expect(step.status.snapshot?.members.first?.blocksToday == 6)
        #expect(step.exchangedMark == 8, "not asked again until the mark moves")
    }

    @Test func aLinkStoppingExchangesNoGamesButTellsWhatItRead() {
        var step = Self.linkAfterAFirstLook()
        _ = step.step(.trigger(.changed, draft: Self.draft, today: Self.monday, gamesDay: Self.monday))
        _ = step.step(.daysSent([]))
        _ = step.step(.looked(Self.look(mark: 8, whole: false, blocksOf: 6), following: nil))
        #expect(names(step.step(.gamesSkipped)) == ["publish", "cache"])
        #expect(step.exchangedMark == 5)
    }

    /// The effects, written short.
    func names(_ effects: [GroupLinkStep.Effect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .open: "open"
            case .sendProfile: "sendProfile"
            case .sendDays: "sendDays"
            case .look(_, let previous): previous.map { "look(since \($0.mark ?? -1))" } ?? "look(whole)"
            case .exchangeGames(let writing, let settling, _, _):
                "exchange("
                    + [writing ? "writing" : nil, settling ? "settling" : nil].compactMap { $0 }
                    .joined(separator: ", ") + ")"
            case .recordSent(let version): "recordSent(\(version))"
            case .markSent(let days): "markSent(\(days.count))"
            case .cache: "cache"
            case .dropStore: "dropStore"
            case .retry(let failures): "retry(\(failures))"
            case .publish: "publish"
            case .log(let level, _, _): "log(\(level))"
            case .logLeftOut: "logLeftOut"
            }
        }
    }
}
