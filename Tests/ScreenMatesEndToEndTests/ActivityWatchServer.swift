import Foundation
import Glibc
import ScreenMatesTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A throw-away ActivityWatch server for the tests: the real `aw-server` from PyPI, in testing
/// mode with in-memory storage, on a free loopback port, stopped when the test ends.
///
/// `.ci/run` installs it into `.build-ci/aw-venv` and exports `SCREENMATES_TEST_AW_SERVER`;
/// without it the tests that need it are skipped, saying how to get it.
final class ActivityWatchServer: Sendable {
    let port: Int
    let process: SpawnedProcess
    var url: String { "http://127.0.0.1:\(port)" }

    static let skipReason: Comment = """
        needs ActivityWatch's server: python3 -m venv .build-ci/aw-venv && .build-ci/aw-venv/bin/pip install \
        aw-server (as .ci/run does), or export SCREENMATES_TEST_AW_SERVER=/path/to/aw-server
        """

    /// The `aw-server` program, if there is one.
    static let executable: String? = {
        if let path = ProcessInfo.processInfo.environment["SCREENMATES_TEST_AW_SERVER"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let local = root.appendingPathComponent(".build-ci/aw-venv/bin/aw-server").path
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }()

    static var available: Bool { executable != nil }

    private init(port: Int, process: SpawnedProcess) {
        self.port = port
        self.process = process
    }

    /// Starts a server (on `port`, or a free one) and waits until it answers.
    static func start(port: Int? = nil) async throws -> ActivityWatchServer {
        let executable = try #require(executable, "no aw-server to start")
        let port = try port ?? freePort()
        let process = try await SpawnedProcess(
            executable, ["--testing", "--host", "127.0.0.1", "--port", "\(port)", "--storage", "memory"])
        let server = ActivityWatchServer(port: port, process: process)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if process.hasEnded { break }
            if let (status, _) = try? await server.request("GET", "/api/0/info"), status == 200 { return server }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.kill()
        throw ServerDidNotStart(detail: process.standardError)
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        var detail: String
        var description: String { "aw-server did not start: \(detail.suffix(2000))" }
    }

    /// Stops the server and waits for it to end.
    func stop() async {
        process.kill(SIGTERM)
        if await process.wait(timeout: 20) == nil { process.kill() }
    }

    /// A port nobody listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        try #require(bound, "no free port: errno \(errno)")
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: The REST API, as the watchers use it

    @discardableResult
    func request(_ method: String, _ path: String, json: Any? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: url + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func createBucket(_ id: String, type: String, host: String) async throws {
        let (status, data) = try await request(
            "POST", "/api/0/buckets/\(id)", json: ["client": "screenmates-test", "type": type, "hostname": host])
        #expect(status == 200 || status == 304, "\(String(decoding: data, as: UTF8.self))")
    }

    static func event(_ start: Date, seconds: Double, _ data: [String: String]) -> [String: Any] {
        ["timestamp": ISO8601DateFormatter().string(from: start), "duration": seconds, "data": data]
    }

    func post(_ events: [[String: Any]], to bucket: String) async throws {
        let (status, data) = try await request("POST", "/api/0/buckets/\(bucket)/events", json: events)
        #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
    }

    func heartbeat(_ event: [String: Any], to bucket: String, pulsetime: Double) async throws {
        let (status, data) = try await request(
            "POST", "/api/0/buckets/\(bucket)/heartbeat?pulsetime=\(pulsetime)", json: event)
        #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
    }

    func eventCount(_ bucket: String) async throws -> Int {
        let (_, data) = try await request("GET", "/api/0/buckets/\(bucket)/events?limit=-1")
        return (try JSONSerialization.jsonObject(with: data) as? [Any])?.count ?? -1
    }
}
