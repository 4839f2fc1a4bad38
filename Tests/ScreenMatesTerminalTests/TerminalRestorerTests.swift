import Glibc
import Testing

@testable import ScreenMatesTerminal

/// The crash handler finds a signal's previous action by a switch, not by searching an array;
/// the switch and the list of crash signals must agree.
@Suite struct TerminalRestorerTests {
    @Test func everyCrashSignalHasItsOwnSlot() {
        let slots = TerminalRestorer.crashSignals.map { TerminalRestorer.slot(for: $0) }
        #expect(slots.allSatisfy { $0 != nil })
        let indices = slots.compactMap(\.self)
        #expect(Set(indices).count == indices.count, "two crash signals share a slot")
        #expect(indices.allSatisfy { (0..<TerminalRestorer.slotCount).contains($0) })
        #expect(TerminalRestorer.slotCount == TerminalRestorer.crashSignals.count)
    }

    @Test func otherSignalsHaveNoSlot() {
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT, SIGUSR1, SIGPIPE, 0] {
            #expect(TerminalRestorer.slot(for: signal) == nil, "signal \(signal)")
        }
    }
}
