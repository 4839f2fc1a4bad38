import Logging
import ScreenMatesGroupStore

extension Logger {
    /// Writes each row a group store left out that was not left out last time, once: a bad row
    /// read again on every change of the group is named when it appears, not on every read.
    func leftOut(_ rows: [LeftOutRow], previously: [LeftOutRow]?) {
        let known = Set(previously ?? [])
        for row in rows where !known.contains(row) {
            warning("group store row left out: \(row)", metadata: ["kind": "\(row.kind.rawValue)"])
        }
    }
}
