import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Synchronization

// Asking at a steady pace, and telling the watchers: what a feed does where notifications do not
// come back (behind a connection pooler) or are left out (a notification queue half full).
extension PostgresChangeFeed {
    /// Asks for every watched group's change number every `pollInterval`, through the store's
    /// pool, and signals a group's watchers when it moved (and at the first answer, as a
    /// listener does when its LISTEN is in place). A question that fails is asked again next
    /// time: the watchers' own reads find out whether the store is out of reach.
    ///
    /// The questions keep to a beat of their own, at a moment of the interval drawn at random
    /// (`PollBeat`): thousands of members behind one pooler ask spread over the interval, and
    /// stay spread after the server was slow to answer them all — were each to wait the interval
    /// from its answer, the answers that came together would make their questions come together.
    func poll(generation: Int) async {
        var seen: [GroupCode: Int64] = [:]
        var beat = PollBeat(interval: Self.pollInterval, start: .now)
        while !Task.isCancelled {
            let asked = state.withLock { state -> (codes: [GroupCode], pool: Pool?)? in
                guard state.generation == generation else { return nil }
                return (Array(state.watchers.keys), state.pool)
            }
            guard let asked else { return }
            for code in asked.codes {
                guard let pool = asked.pool, let mark = try? await pool.changeMark(code) else { continue }
                if seen.updateValue(mark, forKey: code) != mark { signal(code) }
            }
            try? await Task.sleep(until: beat.next(after: .now), clock: .continuous)
        }
    }

    /// A channel name the schema generates: `screenmates_` and 32 hexadecimal digits.
    static func isGenerated(_ channel: String) -> Bool {
        let prefix = "screenmates_"
        guard channel.hasPrefix(prefix) else { return false }
        let digits = channel.utf8.dropFirst(prefix.utf8.count)
        return digits.count == 32 && digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    func startedListening(_ code: GroupCode, generation: Int) {
        let watchers = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            guard state.generation == generation else { return [] }
            state.listening.insert(code)
            return state.watchers[code].map { Array($0.values) } ?? []
        }
        for watcher in watchers { watcher.yield() }
    }

    func signalEveryWatcher() {
        let watchers = state.withLock { state in state.watchers.values.flatMap(\.values) }
        for watcher in watchers { watcher.yield() }
    }

    func signal(_ code: GroupCode) {
        let watchers = state.withLock { state in state.watchers[code].map { Array($0.values) } ?? [] }
        for watcher in watchers { watcher.yield() }
    }
}

/// When a store that follows its groups by asking asks next: on a beat of `interval` whose phase
/// is drawn at random once, so that many stores ask spread over the interval. A beat missed (an
/// answer that took longer than the interval) is skipped, not made up: the next question comes
/// at the following beat of the same phase.
struct PollBeat: Sendable {
    let interval: Duration
    /// A beat: every other is a whole number of intervals from it.
    private var beat: ContinuousClock.Instant

    init(interval: Duration, start: ContinuousClock.Instant, phase: Double = .random(in: 0..<1)) {
        self.interval = interval
        beat = start + interval * min(max(phase, 0), 1)
    }

    /// The first beat after `now` (the one at `now` counts as passed).
    mutating func next(after now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        if beat <= now {
            let behind = beat.duration(to: now) / interval
            beat += interval * (behind.rounded(.down) + 1)
        }
        return beat
    }
}
