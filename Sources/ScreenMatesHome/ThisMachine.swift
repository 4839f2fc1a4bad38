import Foundation
import Glibc
import ScreenMatesCore
import ScreenMatesStore

/// The machine a home runs on, among its member's machines: an id the home draws once (never
/// copied with the identity file, which every machine of the member holds) and a name, the
/// host's by default. A home copied to another host — a disk image, a backup restored — draws
/// again there, so two machines never share an id.
public enum ThisMachine {
    /// What this home's machine is, and how it came to be.
    public struct Found: Hashable, Sendable {
        public var machine: StoredMachine
        /// Drawn now: the home had none.
        public var drawn: Bool
        /// Drawn now because the home was drawn on another host before (it was copied here).
        public var copied: Bool
    }

    /// What the host is known by: `/etc/machine-id` (systemd's, one per installed system), else the
    /// host's name. Kept in the home only; never sent.
    public static func hostKey(machineIDFile: String = "/etc/machine-id") -> String {
        if let text = try? String(contentsOfFile: machineIDFile, encoding: .utf8) {
            let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !key.isEmpty { return "machine-id:" + key }
        }
        return "host:" + hostName()
    }

    /// This host's key, read once per process: every write to a group store asks for the home's
    /// machine (`current`), and the host does not change under a running program.
    public static let thisHost = hostKey()

    /// The host's name (`gethostname`).
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This home's machine: the one it drew before on this host, else a new one drawn now and kept,
    /// named after `hostName`, which takes over the older versions' machine in a group store when
    /// the home had sent to one (`StoredMachine.adoptsFirst`).
    public static func current(
        store: LocalStore, host: String = thisHost, hostName: String = hostName(), now: Date = Date()
    ) throws(StoreError) -> Found {
        let kept = try store.thisMachine()
        if let kept, kept.host == host { return Found(machine: kept, drawn: false, copied: false) }
        var generator = SystemRandomNumberGenerator()
        // A home that sent to a group before it drew a machine was, there, the machine versions
        // from before machines wrote as: this one takes it over.
        let machine = StoredMachine(
            id: MachineID.random(using: &generator), name: MachineName.fromHostName(hostName), host: host,
            drawnAt: now, adoptsFirst: try store.hasSentToAGroup())
        try store.setThisMachine(machine)
        return Found(machine: try store.thisMachine() ?? machine, drawn: true, copied: kept != nil)
    }
}
