import Foundation
import ScreenMatesCore
import ScreenMatesStore
import ScreenMatesTestSupport

extension LocalStore {
    /// A profile made at the start of its first day (UTC), as the tests make them.
    package func createProfileIfNeeded(userID: String, trackingStart: LocalDate, apps: [TrackedApp]) throws(StoreError)
        -> UserSettings
    {
        try createProfileIfNeeded(
            userID: UserID(userID), trackingStart: trackingStart, apps: apps,
            now: DayCalendar(timeZone: TimeZone(identifier: "UTC")!).interval(of: trackingStart).lowerBound)
    }
}
