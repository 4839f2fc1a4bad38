import Foundation
import ScreenMatesCore

/// Events made on demand, stamped with the time they are made: what `monitor --rate N`
/// writes. The k-th event of a seed always has the same id (and app), so a monitor killed
/// and started again with the same seed repeats its events instead of inventing new ones:
/// the store keeps each once, and the restarted monitor reports the ids again.
public struct RateSource: UsageSource {
    public let seed: UInt64
    public let apps: [TrackedApp]
    public let blockSeconds: Int
    public private(set) var index: Int = 0

    public init(seed: UInt64, apps: [TrackedApp], blockMinutes: Int) {
        self.seed = seed
        self.apps = apps
        self.blockSeconds = max(60, blockMinutes * 60)
    }

    public mutating func next(now: Date) -> UsageEvent? {
        guard !apps.isEmpty else { return nil }
        var generator = SeededGenerator(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15) ^ 0x5EED)
        index += 1
        let app = apps[Int(generator.next() % UInt64(apps.count))]
        let id = generator.uuid()
        let millis = (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return UsageEvent(
            id: id, appID: app.id, category: app.category, seconds: blockSeconds,
            occurredAt: Date(timeIntervalSince1970: millis))
    }
}
