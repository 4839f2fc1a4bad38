import Foundation

/// sway's IPC (the i3 protocol) over the Unix socket in `$SWAYSOCK`: each message is the magic
/// `i3-ipc`, the payload's length and the message type (both 32-bit, the machine's byte order),
/// then a JSON payload. Events carry the type with the high bit set.
///
/// Two connections: one subscribed to the events the probe follows, drained without waiting;
/// one for a request now and then (the tree), answered within two seconds.
struct SwayIPC {
    /// The message types the probe sends, and the events it follows.
    enum Kind: UInt32 {
        case runCommand = 0
        case subscribe = 2
        case getTree = 4
        case getVersion = 7
        case workspaceEvent = 0x8000_0000
        case windowEvent = 0x8000_0003
        case shutdownEvent = 0x8000_0006
    }

    struct Message: Equatable {
        var type: UInt32
        var payload: [UInt8]
    }

    static let magic = Array("i3-ipc".utf8)
    static let headerSize = magic.count + 8

    static func encode(_ kind: Kind, _ payload: String = "") -> [UInt8] {
        let body = Array(payload.utf8)
        var bytes = magic
        withUnsafeBytes(of: UInt32(body.count)) { bytes += $0 }
        withUnsafeBytes(of: kind.rawValue) { bytes += $0 }
        return bytes + body
    }

    /// Takes the complete messages off the front of `buffer`, leaving a partial one there.
    static func decode(_ buffer: inout [UInt8]) throws(FocusProbeError) -> [Message] {
        var messages: [Message] = []
        var start = 0
        while buffer.count - start >= headerSize {
            guard Array(buffer[start..<start + magic.count]) == magic else {
                throw FocusProbeError("sway's IPC sent a message that does not start with i3-ipc.")
            }
            let length = Int(word(buffer, at: start + magic.count))
            let type = word(buffer, at: start + magic.count + 4)
            guard buffer.count - start - headerSize >= length else { break }
            let body = start + headerSize
            messages.append(Message(type: type, payload: Array(buffer[body..<body + length])))
            start = body + length
        }
        buffer.removeFirst(start)
        return messages
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    let path: String
    private let events: UnixSocket
    private var pending: [UInt8] = []

    /// Connects to sway at `path` and subscribes to window and workspace changes.
    init(path: String) throws(FocusProbeError) {
        self.path = path
        events = try UnixSocket(path: path, peer: "sway")
        try events.send(Self.encode(.subscribe, #"["window","workspace","shutdown"]"#))
        let reply = try Self.reply(on: events, to: .subscribe, pending: &pending)
        guard String(decoding: reply, as: UTF8.self).contains("true") else {
            throw FocusProbeError("sway refused the subscription to window events at \(path).")
        }
    }

    /// The events that arrived since the last call.
    mutating func drainEvents() throws(FocusProbeError) -> [Message] {
        pending += try events.drain()
        return try Self.decode(&pending)
    }

    /// Sends one request on a connection of its own and returns the reply's payload.
    func request(_ kind: Kind, _ payload: String = "") throws(FocusProbeError) -> [UInt8] {
        let socket = try UnixSocket(path: path, peer: "sway")
        try socket.send(Self.encode(kind, payload))
        var buffer: [UInt8] = []
        return try Self.reply(on: socket, to: kind, pending: &buffer)
    }

    /// Waits for the reply to `kind`; events before it stay in `pending`.
    private static func reply(on socket: UnixSocket, to kind: Kind, pending: inout [UInt8])
        throws(FocusProbeError) -> [UInt8]
    {
        var early: [UInt8] = []
        defer { pending = early + pending }
        while true {
            guard let bytes = try socket.receive(timeout: .seconds(2)) else {
                throw FocusProbeError("sway closed the connection before it answered.", sourceEnded: true)
            }
            pending += bytes
            for message in try decode(&pending) {
                if message.type == kind.rawValue { return message.payload }
                early += encode(message)
            }
        }
    }

    private static func encode(_ message: Message) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: UInt32(message.payload.count)) { bytes += $0 }
        withUnsafeBytes(of: message.type) { bytes += $0 }
        return bytes + message.payload
    }
}
