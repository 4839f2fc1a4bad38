import Foundation
import Glibc
import Testing

@testable import ScreenMatesSources

/// The Wayland idle client's wire: messages as the protocol lays them out, and the
/// `ext-idle-notify-v1` conversation (which sway 1.7, the compositor run here, does not offer)
/// against a peer that answers as the protocol's XML says a compositor does.
@Suite struct WaylandIdleTests {
    @Test func messagesAreLaidOutAsTheWireProtocolSays() throws {
        // wl_registry.bind(name 7, "wl_seat", version 1, new id 4): header, name, the string
        // (length with its zero, padded to a word), version, id.
        let bind = WaylandWire.bind(registry: 2, 7, "wl_seat", version: 1, id: 4)
        #expect(bind.count == 8 + 4 + (4 + 8) + 4 + 4)
        #expect(WaylandWire.word(bind, at: 0) == 2)
        #expect(WaylandWire.word(bind, at: 4) == UInt32(bind.count) << 16 | 0)
        #expect(WaylandWire.string(Array(bind[8...]), at: 4) == "wl_seat")
        var buffer = bind + Array(bind.prefix(5))
        let messages = try WaylandWire.decode(&buffer)
        #expect(messages.count == 1 && messages[0].object == 2 && messages[0].opcode == 0)
        #expect(buffer.count == 5, "a partial message stays for the next read")
    }

    @Test func swaysFramesComeApartWhereverTheReadsCut() throws {
        let first = SwayIPC.encode(.getTree, "{}")
        let second = SwayIPC.encode(.subscribe, #"["window"]"#)
        let bytes = first + second
        for cut in 0...bytes.count {
            var buffer = Array(bytes[..<cut])
            var messages = try SwayIPC.decode(&buffer)
            buffer += bytes[cut...]
            messages += try SwayIPC.decode(&buffer)
            #expect(messages.map(\.type) == [4, 2] && buffer.isEmpty, "cut at \(cut)")
            #expect(String(decoding: messages[1].payload, as: UTF8.self) == #"["window"]"#)
        }
        var garbage = Array("not-i3-ipc-at-all".utf8)
        #expect(throws: FocusProbeError.self) { try SwayIPC.decode(&garbage) }
    }

    @Test func extIdleNotifyIsAskedForWithTheTimeoutAndTheSeatAndItsEventsFollowed() async throws {
        let peer = try IdlePeer()
        let environment = ["WAYLAND_DISPLAY": peer.path, "XDG_RUNTIME_DIR": "/nonexistent"]
        let idle = try #require(try WaylandIdle.connect(environment: environment, timeout: 1.5))
        #expect(idle.protocolName == "ext-idle-notify")
        // bind(seat), bind(notifier), get_idle_notification(new id, 1500 ms, the seat).
        let requests = peer.requests
        let seatBind = try #require(
            requests.first { $0.object == 2 && WaylandWire.string($0.arguments, at: 4) == "wl_seat" })
        let seat = WaylandWire.word(seatBind.arguments, at: seatBind.arguments.count - 4)
        let notifierBind = try #require(
            requests.first { $0.object == 2 && WaylandWire.string($0.arguments, at: 4) == "ext_idle_notifier_v1" })
        let notifier = WaylandWire.word(notifierBind.arguments, at: notifierBind.arguments.count - 4)
        let ask = try #require(requests.first { $0.object == notifier && $0.opcode == 1 })
        #expect(WaylandWire.word(ask.arguments, at: 4) == 1500)
        #expect(WaylandWire.word(ask.arguments, at: 8) == seat)
        let notification = WaylandWire.word(ask.arguments, at: 0)

        let now = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(try idle.idleSeconds(at: now) == 0)
        peer.send(WaylandWire.message(notification, opcode: 0, []))  // idled
        var seconds = try idle.idleSeconds(at: now)
        for _ in 0..<200 where seconds == 0 {
            try await Task.sleep(for: .milliseconds(10))
            seconds = try idle.idleSeconds(at: now)
        }
        #expect(seconds == 1.5)
        #expect(try idle.idleSeconds(at: now.addingTimeInterval(60)) == 61.5)
        peer.send(WaylandWire.message(notification, opcode: 1, []))  // resumed
        for _ in 0..<200 where seconds > 0 {
            try await Task.sleep(for: .milliseconds(10))
            seconds = try idle.idleSeconds(at: now)
        }
        #expect(seconds == 0)
    }
}

/// A Wayland peer that offers a seat and `ext_idle_notifier_v1`, answers each `sync`, keeps the
/// requests it is sent, and sends what the test tells it to.
final class IdlePeer: @unchecked Sendable {
    let path = NSTemporaryDirectory() + "sm-wl-" + UUID().uuidString.prefix(8)
    private let listener: Int32
    private let lock = NSLock()
    private var client: Int32 = -1
    private var received: [WaylandWire.Message] = []

    var requests: [WaylandWire.Message] { lock.withLock { received } }

    init() throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(listener, 1) == 0)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    func send(_ bytes: [UInt8]) {
        let descriptor = lock.withLock { client }
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    private func serve() {
        let descriptor = accept(listener, nil, nil)
        guard descriptor >= 0 else { return }
        lock.withLock { client = descriptor }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            pending += buffer[0..<count]
            guard let messages = try? WaylandWire.decode(&pending) else { return }
            for message in messages {
                lock.withLock { received.append(message) }
                switch (message.object, message.opcode) {
                case (1, 1):  // get_registry: the globals
                    let registry = WaylandWire.word(message.arguments, at: 0)
                    send(WaylandWire.message(registry, opcode: 0, [.uint(1), .string("wl_seat"), .uint(7)]))
                    send(WaylandWire.message(registry, opcode: 0, [.uint(2), .string("wl_compositor"), .uint(4)]))
                    send(
                        WaylandWire.message(registry, opcode: 0, [.uint(3), .string("ext_idle_notifier_v1"), .uint(1)]))
                case (1, 0):  // sync: done
                    send(WaylandWire.message(WaylandWire.word(message.arguments, at: 0), opcode: 0, [.uint(1)]))
                default:
                    break
                }
            }
        }
    }

    deinit {
        close(listener)
        if client >= 0 { close(client) }
        unlink(path)
    }
}
