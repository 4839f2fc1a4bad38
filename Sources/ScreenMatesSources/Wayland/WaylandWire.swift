import Foundation

/// The Wayland wire protocol, as much as the idle client needs: a message is the object's id,
/// then its size in bytes (upper 16 bits) and opcode (lower 16), then its arguments as 32-bit
/// words in the machine's byte order; a string is its length with the closing zero, its bytes
/// and the zero, padded to a whole word.
enum WaylandWire {
    enum Argument {
        case uint(UInt32)
        case string(String)
    }

    struct Message: Equatable {
        var object: UInt32
        var opcode: UInt16
        var arguments: [UInt8]
    }

    static func message(_ object: UInt32, opcode: UInt16, _ arguments: [Argument]) -> [UInt8] {
        var body: [UInt8] = []
        for argument in arguments {
            switch argument {
            case .uint(let value):
                append(value, to: &body)
            case .string(let text):
                let bytes = Array(text.utf8) + [0]
                append(UInt32(bytes.count), to: &body)
                body += bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
            }
        }
        var bytes: [UInt8] = []
        append(object, to: &bytes)
        append(UInt32(8 + body.count) << 16 | UInt32(opcode), to: &bytes)
        return bytes + body
    }

    /// `wl_registry.bind`: its new id is untyped, so the interface and version travel with it.
    static func bind(registry: UInt32, _ name: UInt32, _ interface: String, version: UInt32, id: UInt32) -> [UInt8] {
        message(registry, opcode: 0, [.uint(name), .string(interface), .uint(version), .uint(id)])
    }

    /// Takes the complete messages off the front of `buffer`.
    static func decode(_ buffer: inout [UInt8]) throws(FocusProbeError) -> [Message] {
        var messages: [Message] = []
        var start = 0
        while buffer.count - start >= 8 {
            let object = word(buffer, at: start)
            let sizeAndOpcode = word(buffer, at: start + 4)
            let size = Int(sizeAndOpcode >> 16)
            guard size >= 8, size % 4 == 0 else {
                throw FocusProbeError("The Wayland compositor sent a message of \(size) bytes, which no message has.")
            }
            guard buffer.count - start >= size else { break }
            messages.append(
                Message(
                    object: object, opcode: UInt16(sizeAndOpcode & 0xFFFF),
                    arguments: Array(buffer[start + 8..<start + size])))
            start += size
        }
        buffer.removeFirst(start)
        return messages
    }

    /// `wl_registry.global`'s arguments: name, interface, version.
    static func global(_ arguments: [UInt8]) -> (name: UInt32, interface: String, version: UInt32)? {
        guard arguments.count >= 8, let interface = string(arguments, at: 4) else { return nil }
        let length = Int(word(arguments, at: 4))
        let versionAt = 8 + (length + 3) / 4 * 4
        guard arguments.count >= versionAt + 4 else { return nil }
        return (word(arguments, at: 0), interface, word(arguments, at: versionAt))
    }

    /// The string argument that starts at `offset`.
    static func string(_ arguments: [UInt8], at offset: Int) -> String? {
        guard arguments.count >= offset + 4 else { return nil }
        let length = Int(word(arguments, at: offset))
        guard length > 0, arguments.count >= offset + 4 + length else { return nil }
        return String(decoding: arguments[offset + 4..<offset + 4 + length - 1], as: UTF8.self)
    }

    static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }
}
