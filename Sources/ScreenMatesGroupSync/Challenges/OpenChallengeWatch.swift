import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesGroupStore

/// Keeps the boards of the challenges open to all that the user joined fresh on the dashboard,
/// whatever group (if any) they are in: every `interval` it reads the group store's open change
/// mark, and when the mark moved, or this home has a part the store has not been told, it
/// exchanges them (`OpenChallenges.exchange`: reports, reads, caches) and calls `onChange`.
///
/// It polls the one number the store keeps for all open challenges (a server's sequence, a row of
/// the shared file) rather than listening: a board's participants are in many groups, and no
/// group's change signal covers them. The dashboard starts it only once the user takes part in
/// one.
///
/// An actor: `run` owns the ticker and the store it opened, and returns once both are gone;
/// whoever starts `run` awaits it. `stop()` returns at once, from any thread.
public actor OpenChallengeWatch {
    /// How often the mark is read.
    public static let interval: Duration = .seconds(3)

    private let open: OpenChallenges
    private let location: GroupStoreLocation
    private let logger: Logger
    private let onChange: @Sendable () -> Void
    private let ticks: AsyncStream<Void>
    private nonisolated let tick: AsyncStream<Void>.Continuation
    private var store: (any GroupStore)?
    private var seen: Int64?

    public init(
        open: OpenChallenges, location: GroupStoreLocation, logger: Logger, onChange: @escaping @Sendable () -> Void
    ) {
        self.open = open
        self.location = location
        self.logger = logger
        self.onChange = onChange
        (ticks, tick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Ends `run` soon after; safe to call more than once, from any thread.
    public nonisolated func stop() {
        tick.finish()
    }

    /// Looks at once, then every `interval`, until `stop` or cancellation.
    public func run() async {
        let tick = self.tick
        let ticker = Task {
            while !Task.isCancelled {
                tick.yield()
                guard (try? await Task.sleep(for: Self.interval)) != nil else { return }
            }
        }
        for await _ in ticks {
            guard !Task.isCancelled else { break }
            await look()
        }
        ticker.cancel()
        await ticker.value
        await store?.close()
        store = nil
    }

    private func look() async {
        let stored = (try? open.local.challenges()) ?? []
        guard stored.contains(where: \.openToAll) else { return }
        let today = open.calendar.day(containing: open.clock.now())
        let owed = !((try? open.local.pendingOpenReports(today: today)) ?? []).isEmpty
        do throws(GroupStoreError) {
            let current: any GroupStore
            if let store {
                current = store
            } else {
                current = try await location.open()
                store = current
            }
            let mark = try await current.openChallengesMark(userID: open.userID)
            guard owed || mark != seen else { return }
            seen = try await open.exchange(with: current).mark
            onChange()
        } catch {
            // Out of reach, or refused: the next look tries again from a fresh connection.
            if seen != nil { logger.info("open challenges not read: \(error.message)") }
            await store?.close()
            store = nil
            seen = nil
        }
    }
}
