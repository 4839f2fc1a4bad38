import Foundation
import Glibc

/// A connected Unix stream socket to a compositor (sway's IPC, Hyprland's sockets, Wayland):
/// requests are written whole and answered within a deadline; events are drained without
/// waiting, so a probe sampled once a second never blocks on a quiet peer.
///
/// A peer that closed its end (the compositor exited) is `FocusProbeError.sourceEnded`: the
/// socket cannot come back, a new compositor makes a new one.
final class UnixSocket {
    let path: String
    let descriptor: Int32
    /// What the peer is, in the words of a message (`sway`, `Hyprland`).
    let peer: String

    init(path: String, peer: String) throws(FocusProbeError) {
        self.path = path
        self.peer = peer
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw FocusProbeError("\(peer)'s socket path \(path) is too long for a Unix socket.")
        }
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            throw FocusProbeError("Cannot make a socket to reach \(peer): \(String(cString: strerror(errno))).")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw FocusProbeError(
                "Cannot connect to \(peer) at \(path) (\(reason)): is \(peer) running, and is this its session?")
        }
        descriptor = socket
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws(FocusProbeError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw ended(String(cString: strerror(errno)))
            }
            offset += count
        }
    }

    /// What the peer has sent so far, without waiting (empty: nothing yet).
    func drain() throws(FocusProbeError) -> [UInt8] {
        var result: [UInt8] = []
        while true {
            switch try receive(flags: Int32(MSG_DONTWAIT)) {
            case .bytes(let bytes): result += bytes
            case .wouldBlock: return result
            case .closed: throw ended("it closed the connection")
            }
        }
    }

    /// Waits up to `timeout` for more bytes; `nil` when the peer closed its end (a reply that
    /// ends with the connection, as Hyprland's do).
    func receive(timeout: Duration) throws(FocusProbeError) -> [UInt8]? {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout / .milliseconds(1))
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                throw FocusProbeError("\(peer) did not answer within \(timeout.components.seconds) s at \(path).")
            }
            break
        }
        switch try receive(flags: 0) {
        case .bytes(let bytes): return bytes
        case .wouldBlock: return []
        case .closed: return nil
        }
    }

    private enum Received {
        case bytes([UInt8])
        case wouldBlock
        case closed
    }

    private func receive(flags: Int32) throws(FocusProbeError) -> Received {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw ended(String(cString: strerror(errno)))
            }
        }
    }

    private func ended(_ reason: String) -> FocusProbeError {
        FocusProbeError("\(peer) went away (\(reason) at \(path)).", sourceEnded: true)
    }
}
