import Foundation
import ScreenMatesCore
import ScreenMatesHome
import ScreenMatesStore
import Testing

@testable import ScreenMatesMonitorRuntime

/// The gate background work writes through.
@Suite struct LocalWriteGateTests {
    @Test func aClosedGateLetsNothingThrough() {
        let gate = LocalWriteGate()
        #expect(gate.pass { 1 } == 1)
        gate.close()
        #expect(gate.pass { 2 } == nil)
        #expect(!gate.isOpen)
    }

    @Test func aGatedSinkRefusesOnceClosedAndNothingIsStored() throws {
        let directory = NSTemporaryDirectory() + "screenmates-gate-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try LocalStore.open(at: directory + "/local.sqlite")
        let gate = LocalWriteGate()
        let sink = GatedEventSink(sink: store, gate: gate)
        let event = UsageEvent(id: UUID(), appID: "tiktok", category: .vice, seconds: 900, occurredAt: Date())
        #expect(try sink.record([event]) == 1)
        gate.close()
        let late = UsageEvent(id: UUID(), appID: "tiktok", category: .vice, seconds: 900, occurredAt: Date())
        #expect(throws: GatedEventSink.Closed.self) { try sink.record([late]) }
        #expect(try store.events(after: 0).map(\.event.id) == [event.id])
    }
}
