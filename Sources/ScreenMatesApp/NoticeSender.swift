import Foundation
import ScreenMatesCore
import ScreenMatesStore

/// Notices sent from the command line: recorded for the first open dashboard to show.
public enum NoticeSender {
    /// Records a test notice on the app clock of `home`, dated in `timeZone`; returns it.
    public static func sendTest(home: HomeDirectory, timeZone: TimeZoneSource) throws(AppError) -> Notice {
        do {
            let store = try home.openStore()
            let clock = try ClockSource.choose(
                speed: nil, startAt: nil, store: store, publish: false, timeZone: timeZone
            ).clock
            let settings = try store.settings()
            let calendar = DayCalendar(timeZone: timeZone.current(), dayStartHour: settings?.dayStartHour ?? 0)
            let now = clock.now()
            let notice = NotificationScheduler.test(now: now, calendar: calendar)
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
}
