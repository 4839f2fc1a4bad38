import Foundation
import Glibc
import Testing

/// Hyprland's two sockets, played back: Hyprland is not packaged for Debian bookworm, so its
/// client is tested against replies recorded in the exact format Hyprland 0.56 writes them
/// (`src/ipc/s1/Commands.cpp`: `getWindowData`, `activeWindowRequest`; `src/ipc/s2`: one
/// `EVENT>>DATA\n` line per event).
///
/// `.socket.sock` answers each request with `reply` and closes the connection, as Hyprland
/// does; `.socket2.sock` takes one listener, to which `send` writes event lines and which
/// `end` closes (the compositor exiting).
final class HyprlandReplay: @unchecked Sendable {
    let runtime: String
    let signature = "6ffae9c5aa0381bf4b65f898fdfae6ac332ab057_1790000000_1234567"
    var directory: String { runtime + "/hypr/" + signature }
    private let requestSocket: Int32
    private let eventSocket: Int32
    private var listener: Int32 = -1
    private let served: Thread

    /// The reply to `j/activewindow` with kitty focused, as Hyprland 0.56 formats it.
    static let kittyReply = """
        {
            "address": "0x55d1c0a8b2f0",
            "mapped": true,
            "hidden": false,
            "visible": true,
            "acceptsInput": true,
            "at": [10, 50],
            "size": [1900, 1020],
            "workspace": {
                "id": 1,
                "name": "1"
            },
            "floating": false,
            "monitor": 0,
            "class": "kitty",
            "title": "nvim ~/notes, \\"plans\\"",
            "initialClass": "kitty",
            "initialTitle": "kitty",
            "pid": 4242,
            "xwayland": false,
            "pinned": false,
            "pinFullscreened": false,
            "fullscreen": 0,
            "fullscreenClient": 0,
            "fullscreenHandler": "none",
            "allowedOverFullscreen": false,
            "grouped": [],
            "tags": [],
            "swallowing": "0x0",
            "focusHistoryID": 0,
            "inhibitingIdle": false,
            "xdgTag": "",
            "xdgDescription": "",
            "contentType": "none",
            "tearingHint": false,
            "stableId": "1a"
        }
        """

    /// Listens on both sockets under a new runtime directory; `.socket.sock` answers `reply`.
    init(reply: String) throws {
        runtime = NSTemporaryDirectory() + "sm-hypr-" + UUID().uuidString.prefix(8)
        let directory = runtime + "/hypr/" + signature
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        requestSocket = try Self.listen(directory + "/.socket.sock")
        eventSocket = try Self.listen(directory + "/.socket2.sock")
        let requests = requestSocket
        let answer = Array(reply.utf8)
        served = Thread {
            // Answers j/activewindow with the recording, anything else as Hyprland does, until
            // the socket is shut down.
            while true {
                let client = accept(requests, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = read(client, &buffer, buffer.count)
                let request = String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
                let bytes = request == "j/activewindow" ? answer : Array("unknown request".utf8)
                _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
        served.start()
    }

    /// What the event listener is told, as Hyprland writes it.
    func send(_ lines: [String]) throws {
        if listener < 0 {
            listener = accept(eventSocket, nil, nil)
            try #require(listener >= 0, "the probe did not connect to .socket2.sock")
        }
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        _ = bytes.withUnsafeBytes { write(listener, $0.baseAddress, $0.count) }
    }

    /// Closes the event connection, as a Hyprland that exits does.
    func end() throws {
        if listener < 0 { listener = accept(eventSocket, nil, nil) }
        close(listener)
        listener = -1
    }

    private static func listen(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && Glibc.listen(descriptor, 8) == 0, "cannot listen on \(path)")
        return descriptor
    }

    deinit {
        shutdown(requestSocket, Int32(SHUT_RDWR))
        close(requestSocket)
        close(eventSocket)
        if listener >= 0 { close(listener) }
        try? FileManager.default.removeItem(atPath: runtime)
    }
}
