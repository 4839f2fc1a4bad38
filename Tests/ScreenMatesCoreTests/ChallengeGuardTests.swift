import Foundation
import PropertyBased
import ScreenMatesCore
import Testing

/// A running challenge forbids an app exactly when one more block of it, now, would break the
/// challenge's rule: the guard that acts when the app is opened agrees with the judge.
@Suite struct ChallengeGuardTests {
    static let calendar = ChallengeJudgeTests.calendar
    static let guardian = ChallengeGuard(calendar: calendar)
    static let first = ChallengeJudgeTests.first
    static let youtube = TrackedApp(id: "youtube", name: "YouTube", bundleID: "com.youtube", category: .vice)
    static let tiktok = TrackedApp(id: "tiktok", name: "TikTok", bundleID: "com.tiktok", category: .vice)
    static let notion = TrackedApp(id: "notion", name: "Notion", bundleID: "so.notion", category: .productive)

    static func watched(_ rule: ChallengeRule, _ action: OpenedAction = .notice, id: String = "c1")
        -> ChallengeGuard.Watched
    {
        var challenge = ChallengeJudgeTests.challenge(rule)
        challenge.id = id
        return .init(challenge: challenge, action: action)
    }

    @Test func atMostNForbidsTheAppOnceNBlocksAreUsedToday() {
        let rule = ChallengeRule.dailyBlocks(max: 2, target: .app("youtube"))
        let now = Self.calendar.instant(on: Self.first.adding(days: 1), hour: 15, minute: 0)
        let one = [ChallengeJudgeTests.block("youtube", .vice, day: 1, 10, 0)]
        let two = one + [ChallengeJudgeTests.block("youtube", .vice, day: 1, 11, 0)]
        #expect(
            Self.guardian.forbidding(Self.youtube, watched: [Self.watched(rule)], today: one, goal: 8, now: now).isEmpty
        )
        let forbidden = Self.guardian.forbidding(
            Self.youtube, watched: [Self.watched(rule)], today: two, goal: 8, now: now)
        #expect(forbidden.map(\.reason) == ["2 of 2 blocks used today"])
        #expect(
            Self.guardian.forbidding(Self.tiktok, watched: [Self.watched(rule)], today: two, goal: 8, now: now).isEmpty,
            "another app is not this challenge's")
    }

    @Test func quietHoursForbidWhileTheyLastPastMidnight() {
        let rule = ChallengeRule.quietHours(
            target: .allVice, from: TimeOfDay(hour: 22, minute: 0)!, until: TimeOfDay(hour: 7, minute: 0)!)
        let late = Self.calendar.instant(on: Self.first.adding(days: 1), hour: 23, minute: 30)
        let noon = Self.calendar.instant(on: Self.first.adding(days: 1), hour: 12, minute: 0)
        #expect(
            Self.guardian.forbidding(Self.tiktok, watched: [Self.watched(rule)], today: [], goal: 8, now: late)
                .map(\.reason) == ["quiet hours until 07:00"])
        #expect(
            Self.guardian.forbidding(Self.tiktok, watched: [Self.watched(rule)], today: [], goal: 8, now: noon).isEmpty)
        #expect(
            Self.guardian.forbidding(Self.notion, watched: [Self.watched(rule)], today: [], goal: 8, now: late).isEmpty,
            "a productive app is not a vice app")
    }

    @Test func nothingActsBeforeOrAfterTheSpanNorForAChallengeThatAskedForNothing() {
        let rule = ChallengeRule.dailyBlocks(max: 0, target: .allVice)
        let before = Self.calendar.instant(on: Self.first.adding(days: -1), hour: 12, minute: 0)
        let during = Self.calendar.instant(on: Self.first, hour: 12, minute: 0)
        let after = Self.calendar.instant(on: Self.first.adding(days: 3), hour: 12, minute: 0)
        for now in [before, after] {
            #expect(
                Self.guardian.forbidding(Self.tiktok, watched: [Self.watched(rule)], today: [], goal: 8, now: now)
                    .isEmpty)
        }
        #expect(
            Self.guardian.forbidding(Self.tiktok, watched: [Self.watched(rule, .off)], today: [], goal: 8, now: during)
                .isEmpty)
        #expect(
            Self.guardian.forbidding(Self.tiktok, watched: [Self.watched(rule)], today: [], goal: 8, now: during).count
                == 1)
    }

    @Test func theStrongestActionComesFirst() {
        let now = Self.calendar.instant(on: Self.first, hour: 12, minute: 0)
        let rule = ChallengeRule.dailyBlocks(max: 0, target: .allVice)
        let watched = [
            Self.watched(rule, .notice, id: "aaaa"), Self.watched(rule, .close, id: "bbbb"),
            Self.watched(rule, .minimize, id: "cccc"),
        ]
        #expect(
            Self.guardian.forbidding(Self.tiktok, watched: watched, today: [], goal: 8, now: now).map(\.action)
                == [.close, .minimize, .notice])
    }

    @Test func theNoticeNamesTheChallengeTheStakeAndTheWayOut() {
        let forbidden = ChallengeGuard.Forbidden(
            challenge: ChallengeJudgeTests.challenge(.dailyBlocks(max: 2, target: .app("youtube"))), action: .minimize,
            reason: "2 of 2 blocks used today")
        let notice = forbidden.notice(
            app: Self.youtube, day: Self.first, at: Date(timeIntervalSince1970: 1_800_000_000),
            done: OpenedAction.minimize.done(appName: "YouTube"))
        #expect(notice.title == "YouTube is off limits (challenge c1)")
        #expect(
            notice.body
                == "at most 2 blocks of youtube a day: 2 of 2 blocks used today; 30 coins are at stake. Go back, or give up with `screenmates challenge forfeit c1`. The window was moved out of sight."
        )
        #expect(notice.kind == .challengeOpened(id: "c1", app: "youtube", action: "minimize"))
        #expect(Notice.isOutsideBudget(key: notice.key))
        #expect(!Notice.isOutsideBudget(key: "2026-11-25 challenge-c1-broken"))
    }

    /// The guard and the judge agree: while a challenge runs unbroken, an app is forbidden now
    /// exactly when a block of it completed now would break the challenge.
    @Test func anAppIsForbiddenExactlyWhenItsNextBlockWouldBreakTheRule() async {
        await propertyCheck(count: 300, input: ChallengeJudgeTests.eventsGen, Gen.int(in: 0...(3 * 1440 - 1))) {
            events, minute in
            let now = Self.calendar.start(of: Self.first).addingTimeInterval(Double(minute) * 60)
            let day = Self.calendar.day(containing: now)
            let today = events.filter { Self.calendar.day(containing: $0.occurredAt) == day && $0.occurredAt < now }
            let past = events.filter { $0.occurredAt < now }
            for rule in ChallengeJudgeTests.rules {
                let challenge = ChallengeJudgeTests.challenge(rule)
                guard
                    case .running = ChallengeJudgeTests.judge.verdict(
                        challenge, events: past, goal: { _ in 3 }, now: now)
                else { continue }
                for app in [Self.youtube, Self.tiktok, Self.notion] {
                    let forbidden = !Self.guardian.forbidding(
                        app, watched: [.init(challenge: challenge, action: .notice)], today: today, goal: 3, now: now
                    ).isEmpty
                    let next = UsageEvent(
                        id: UUID(), appID: app.id, category: app.category, seconds: 900, occurredAt: now)
                    let verdict = ChallengeJudgeTests.judge.verdict(
                        challenge, events: past + [next], goal: { _ in 3 }, now: now.addingTimeInterval(1))
                    let breaks = if case .broken(let at, _) = verdict { at == now } else { false }
                    #expect(forbidden == breaks, "\(rule), \(app.id) at \(now): forbidden \(forbidden), \(verdict)")
                }
            }
        }
    }
}
