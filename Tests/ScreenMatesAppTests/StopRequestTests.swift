import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesMonitor
import ScreenMatesSources
import ScreenMatesWatch
import Synchronization
import Testing

@testable import ScreenMatesApp

/// A stop wakes what waits for it — tasks, a thread in `poll`, the commands that run until
/// stopped — instead of being looked for on a timer. Every wait here is an hour or more, so a
/// stop that did not wake it would hold the test up, not pass by luck.
@Suite struct StopRequestTests {
    @Test func aRequestWakesEveryWaiterAndKeepsTheFirstStatus() async {
        let stop = StopRequest()
        #expect(stop.exitStatus == nil)
        await withDiscardingTaskGroup { group in
            for _ in 0..<3 { group.addTask { await stop.wait() } }
            stop.request(exitStatus: 143)
            stop.request(exitStatus: 130)
        }
        #expect(stop.exitStatus == 143)
        await stop.wait()
    }

    @Test func aCancelledWaiterReturnsWithoutAStop() async {
        let stop = StopRequest()
        let waiter = Task { await stop.wait() }
        waiter.cancel()
        await waiter.value
        #expect(stop.exitStatus == nil)
        await stop.close()
        await stop.wait()
    }

    @Test func aThreadSleepingInPollIsWokenByTheRequest() async {
        let stop = StopRequest()
        let woken = Mutex(false)
        let sleeper = OwnedThread(name: "sleeper") {
            let requested = stop.sleep(for: .seconds(3600))
            woken.withLock { $0 = requested }
        }
        stop.request(exitStatus: 130)
        await sleeper.join()
        #expect(woken.withLock { $0 })
    }

    @Test func workStillRunningIsCancelledByTheStopAndItsResultKept() async {
        let stop = StopRequest()
        async let result = stop.cancelling { () -> String in
            (try? await Task.sleep(for: .seconds(3600))) == nil ? "cancelled" : "slept"
        }
        stop.request(exitStatus: 143)
        #expect(await result == "cancelled")
        #expect(await stop.cancelling { "done" } == "done", "after a stop, work still runs to its end")
    }

    // MARK: - The commands that run until stopped

    /// A home with a profile, as `screenmates setup` leaves it.
    private static func home() throws -> (HomeDirectory, AssetCatalog) {
        let home = HomeDirectory(path: NSTemporaryDirectory() + "screenmates-stop-" + UUID().uuidString)
        _ = try home.prepare()
        let assets = AssetCatalog(directory: ProfileSetupTests.assetsDirectory)
        let store = try home.openStore()
        let choice = ClockSource.Choice(clock: SystemClock(), timeZone: zone, published: false)
        _ = try ProfileSetup.ensureProfile(store: store, catalogue: try assets.appCatalogue(), clock: choice)
        try store.setDisplayName(try DisplayName(validating: "ana"))
        return (home, assets)
    }

    private static let zone = TimeZoneSource.fixed(TimeZone(identifier: "Europe/Berlin")!)
    private static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aSimulatedMonitorStopsWhenAsked() async throws {
        let (home, assets) = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        let session = try MonitorSession(
            home: home, assets: assets, options: MonitorOptions(quiet: true), timeZone: Self.zone,
            logger: Self.logger)
        let stop = StopRequest()
        async let status = session.run(stop: stop)
        stop.request(exitStatus: 143)
        #expect(await status == 143)
    }

    @Test func anActivityWatchFollowerStopsWhenAsked() async throws {
        let (home, assets) = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        // Nothing listens on port 9: the follower waits to try again, and polls once an hour.
        let follower = try ActivityWatchFollower(
            home: home, assets: assets,
            options: ActivityWatchOptions(url: "http://127.0.0.1:9", pollInterval: .seconds(3600), quiet: true),
            timeZone: Self.zone, logger: Self.logger)
        let stop = StopRequest()
        async let status = follower.run(stop: stop)
        stop.request(exitStatus: 130)
        #expect(await status == 130)
    }

    /// A probe that never sees a focus.
    private struct Unfocused: FocusProbe {
        let sourceName = "test"
        let following = "nothing"
        func sample(wallClock: Date) async throws(FocusProbeError) -> FocusSample {
            throw FocusProbeError("no focus here")
        }
    }

    @Test func aSamplingFollowerStopsWhenAsked() async throws {
        let (home, assets) = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        let follower = try SampledFollower(
            home: home, assets: assets, options: SamplingOptions(interval: .seconds(3600), quiet: true),
            timeZone: Self.zone, logger: Self.logger, probe: { Unfocused() })
        let stop = StopRequest()
        async let status = follower.run(stop: stop)
        stop.request(exitStatus: 129)
        #expect(await status == 129)
    }
}
