import Foundation

/// The id of a block derived from active time: a function of where it comes from and which
/// block of the day it is, so deriving the same day again — from any slice of the same data,
/// in this process or after a restart — gives the same ids, and the store keeps each block once.
public enum BlockID {
    /// - Parameters:
    ///   - source: the usage source (`activitywatch`).
    ///   - host: the machine the source watched.
    ///   - day: the day the block belongs to.
    ///   - appID: the tracked app.
    ///   - number: 1 for the day's first block of this app, 2 for the second…
    ///
    /// The block length is not part of the id: a day derived again after the length changed
    /// keeps the blocks it has and adds only those numbered beyond them, so its usage is never
    /// counted once per length.
    public static func make(
        source: String, host: String, day: String, appID: String, number: Int
    ) -> UUID {
        // Fields joined by a separator none of them can contain unescaped.
        let key = [source, host, day, appID, String(number)]
            .map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|") }
            .joined(separator: "|")
        let bytes = Array(key.utf8)
        let a = fnv1a(bytes, basis: 0xCBF2_9CE4_8422_2325)
        let b = fnv1a(bytes, basis: 0x6C62_272E_07BB_0142)
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * UInt64(index))) }
        // Version 8 (custom) layout, RFC 9562.
        return UUID(
            uuid: (
                byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5),
                (byte(a, 6) & 0x0F) | 0x80, byte(a, 7),
                (byte(b, 0) & 0x3F) | 0x80, byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5),
                byte(b, 6), byte(b, 7)
            ))
    }

    /// FNV-1a, 64 bits, then mixed (SplitMix64's finaliser) so nearby keys spread.
    private static func fnv1a(_ bytes: [UInt8], basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var z = hash
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
