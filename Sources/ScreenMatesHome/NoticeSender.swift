import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// Notices sent from the command line: recorded for the first open dashboard to show.
public enum NoticeSender {
    /// Records a test notice on the app clock of `home`, dated in `timeZone`; returns it. With
    /// `challenge`, the notice is the one that challenge gives when its app comes to the front
    /// while its rule forbids it (`--when-opened`), marked as a test.
    public static func sendTest(home: HomeDirectory, timeZone: TimeZoneSource, challenge: String? = nil)
        throws(AppError) -> Notice
    {
        do {
            let store = try home.openStore()
            let clock = try ClockSource.choose(
                speed: nil, startAt: nil, store: store, publish: false, timeZone: timeZone
            ).clock
            let settings = try store.settings()
            let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings?.dayStartHour ?? 0)
            let now = clock.now()
            var notice = NotificationScheduler.test(now: now, calendar: calendar)
            if let challenge, let settings {
                notice = try openedExample(challenge, store: store, settings: settings, notice: notice, now: now)
            }
            _ = try store.claim(deliver: [notice], countAsSent: [], at: now, toasted: false)
            return notice
        } catch let error as AppError {
            throw error
        } catch let error as StoreError {
            throw AppError(error)
        } catch {
            throw AppError("\(error)")
        }
    }

    /// A test notice that reads as challenge `id`'s notice when its app is opened.
    private static func openedExample(
        _ id: String, store: LocalStore, settings: UserSettings, notice: Notice, now: Date
    ) throws -> Notice {
        guard let stored = try store.challenges().first(where: { $0.challenge.id == id.lowercased() }) else {
            throw AppError(
                "There is no challenge \(SafeText.displayable(id)) of yours; `screenmates challenge list` shows them.")
        }
        let app: TrackedApp? =
            switch stored.challenge.rule {
            case .dailyBlocks(_, let target), .quietHours(let target, _, _):
                settings.apps.first(where: target.matches)
            case .streak: settings.apps.first { $0.category == .vice }
            }
        guard let app else {
            throw AppError("Challenge \(stored.challenge.id) is about no app you track, so it never acts.")
        }
        let action = stored.whenOpened == .off ? OpenedAction.notice : stored.whenOpened
        let example = ChallengeGuard.Forbidden(challenge: stored.challenge, action: action, reason: "as a test")
            .notice(app: app, day: notice.day, at: now, done: action.done(appName: app.name))
        var test = notice
        test.title = "Test: " + example.title
        test.body =
            example.body
            + (stored.whenOpened == .off
                ? " (This challenge is set to do nothing: `screenmates challenge when-opened \(stored.challenge.id) notice`.)"
                : "")
        return test
    }
}
