import Foundation
import ScreenMatesCore
import ScreenMatesStore

extension LocalStore {
    /// A profile made at the start of its first day (UTC), as the tests make them.
    func createProfileIfNeeded(userID: String, trackingStart: LocalDate, apps: [TrackedApp]) throws(StoreError)
        -> UserSettings
    {
        try createProfileIfNeeded(
            userID: UserID(userID), trackingStart: trackingStart, apps: apps,
            now: DayCalendar(timeZone: TimeZone(identifier: "UTC")!).interval(of: trackingStart).lowerBound)
    }
}
