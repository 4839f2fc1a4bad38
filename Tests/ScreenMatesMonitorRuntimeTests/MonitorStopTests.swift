import Foundation
import Logging
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesHomeTestSupport
import ScreenMatesMonitor
import ScreenMatesSources
import Testing

@testable import ScreenMatesMonitorRuntime

/// The commands that run until stopped — the simulated monitor, the ActivityWatch follower, the
/// sampling follower — end when their `StopRequest` is made, with its status. Every wait here is
/// an hour or more, so a stop that did not wake them would hold the test up, not pass by luck.
@Suite struct MonitorStopTests {
    /// A home with a profile, as `screenmates setup` leaves it.
    private static func home() throws -> (HomeDirectory, AssetCatalog) {
        let home = HomeDirectory(path: NSTemporaryDirectory() + "screenmates-stop-" + UUID().uuidString)
        _ = try home.prepare()
        let assets = AssetCatalog(directory: RepositoryAssets.directory)
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
