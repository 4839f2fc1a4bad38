import Foundation
import PostgresNIO
import ScreenMatesCore
import ScreenMatesGroupStore
import Synchronization

/// Turns the server's notifications into the `changes(code:)` signal, on one dedicated
/// connection per store that LISTENs on the channel of every group someone is watching.
///
/// A notification is only a wake-up: PostgreSQL does not keep notifications for a listener
/// that was away, so each time a channel's LISTEN is in place — first and after every
/// reconnect — its watchers are told to read again. A lost connection is noticed at once when
/// the server closes it (a restart, `pg_terminate_backend`) and within `keepAliveInterval` when
/// it goes silent; it is made again after a back-off of 50 ms doubling up to 5 s (`reconnect`,
/// half of each wait drawn at random). Idle, the
/// connection costs one tiny query every `keepAliveInterval`: whether the server's writes leave
/// their notices out for now (its notification queue near full, which one member can hold); while
/// they do, the feed tells its watchers to read again every `pollInterval` (`keepAlive`).
///
/// Channel names come from the server (`group_channel`), which generated them; one that does
/// not look generated is never used, since postgres-nio writes it into `LISTEN` unescaped.
///
/// Notifications do not reach a client everywhere: behind a connection pooler in transaction
/// mode (PgBouncer, and what hosted services put in front of their databases) LISTEN is taken
/// and nothing is ever delivered. So before it listens for any group, each connection listens on
/// a channel of its own, made up for it and used for nothing else, and the store sends a NOTIFY
/// on it through its pool (`probeTimeout`); if it does not come back, the feed lets the
/// listening connection go and follows by asking for each watched group's change number every
/// `pollInterval` through the pool instead, yielding only when it moved. The URL's `live=poll`
/// asks for that from the start. `following` says which way it follows.
///
/// Behind such a pooler the probe's LISTEN stays behind on whichever server connection took it,
/// for as long as the pooler keeps that connection. That is why it is a channel nobody notifies
/// again: were it a group's, that server connection would be sent the group's every change and
/// pass it to the pooler, which can give it to no one (PgBouncer logs each one: "got packet 'A'
/// from server when not linked").
///
/// The connection's loop is a task the feed owns: a loop let go of when nobody watches any
/// more is cancelled and ends by itself, and `shutdown` cancels the one running and waits for
/// every loop still ending.
final class PostgresChangeFeed: Sendable {
    /// What the feed asks of its store's pool: a group's change number (read with what the
    /// group's look asks next, see `ChangesReadAhead`), and a NOTIFY on a channel (the probe),
    /// each one short transaction.
    struct Pool: Sendable {
        var changeMark: @Sendable (GroupCode) async throws -> Int64
        var notify: @Sendable (_ channel: String, _ payload: String) async throws -> Void
    }

    struct State {
        var watchers: [GroupCode: [UUID: AsyncStream<Void>.Continuation]] = [:]
        /// Codes whose LISTEN is in place on the current connection.
        var listening: Set<GroupCode> = []
        /// Asks the current connection's session to listen for one more code.
        var session: AsyncStream<GroupCode>.Continuation?
        /// The running loop, and which run it is (an ended run must not undo a newer one's state).
        var loop: Task<Void, Never>?
        var generation = 0
        var stopped = false
        /// Every loop that has not ended yet, by its generation: the running one and those
        /// cancelled that are still ending. Each takes itself out as it ends.
        var loops: [Int: Task<Void, Never>] = [:]
        /// How changes reach the watchers: listened to, or asked for at a steady pace (for good,
        /// once a probe went unheard).
        var following: ChangeFollowing
        /// The server leaves its notices out for now (its notification queue is near full):
        /// the listening connection asks for every watched group every `pollInterval` meanwhile.
        var noticesSkipped = false
        var pool: Pool?
    }

    private let address: PostgresAddress
    let logger: Logger
    /// The member who asks for a group's channel (only members may).
    private let caller: @Sendable (GroupCode) -> PostgresGroupStore.Caller?
    /// The store's queries given up on (a keep-alive or a channel lookup with no answer).
    private let overdue: OverdueQueries
    let state: Mutex<State>
    private let connectionIDs = Atomic<Int>(0)

    static let keepAliveInterval: Duration = .seconds(15)
    /// 50 ms doubling up to 5 s, half of each wait drawn at random (members who lost the server
    /// together come back spread).
    static let reconnect = RetryBackoff(first: .milliseconds(50), longest: .seconds(5))
    /// What `pg_stat_activity` shows for the listening connection.
    static let applicationName = "screenmates-listener"
    /// How long the store's own NOTIFY may take to come back before LISTEN counts as unheard.
    static let probeTimeout: Duration = .seconds(3)
    /// How often each watched group's change number is asked for when notifications do not
    /// reach this client.
    static let pollInterval: Duration = .seconds(2)

    init(
        address: PostgresAddress, logger: Logger, overdue: OverdueQueries,
        caller: @escaping @Sendable (GroupCode) -> PostgresGroupStore.Caller?
    ) {
        self.address = address
        self.logger = logger
        self.overdue = overdue
        self.caller = caller
        state = Mutex(State(following: address.live == .poll ? .polling(every: Self.pollInterval) : .live))
    }

    /// Hands the feed its store's pool (the store exists only once the feed does).
    func use(_ pool: Pool) {
        state.withLock { $0.pool = pool }
    }

    /// Which way the watched groups are followed now.
    var following: ChangeFollowing {
        state.withLock { $0.noticesSkipped ? .polling(every: Self.pollInterval) : $0.following }
    }

    /// A stream that yields when the group may have changed; see `GroupStore.changes(code:)`.
    func watch(_ code: GroupCode) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        enum Next {
            case finish
            case yield
            case ask(AsyncStream<GroupCode>.Continuation)
            case nothing
        }
        let next = state.withLock { state -> Next in
            guard !state.stopped else { return .finish }
            let newCode = state.watchers[code] == nil
            state.watchers[code, default: [:]][id] = continuation
            if state.listening.contains(code) { return .yield }
            var polling = false
            if case .polling = state.following { polling = true }
            if state.loop == nil {
                state.generation += 1
                let generation = state.generation
                let loop = Task.detached { [self] in
                    await run(generation: generation)
                    _ = self.state.withLock { $0.loops.removeValue(forKey: generation) }
                }
                state.loop = loop
                state.loops[generation] = loop
                return polling ? .yield : .nothing
            }
            // Asked for at a steady pace: a first read now, and a signal whenever it moves.
            if polling { return .yield }
            if newCode, let session = state.session { return .ask(session) }
            return .nothing
        }
        continuation.onTermination = { [weak self] _ in self?.unwatch(code, id: id) }
        switch next {
        case .finish: continuation.finish()
        case .yield: continuation.yield()
        case .ask(let session): session.yield(code)
        case .nothing: break
        }
        return stream
    }

    /// Ends every stream and the connection, and waits until the connection's loops have ended.
    func shutdown() async {
        stop()
        let loops = state.withLock { Array($0.loops.values) }
        for loop in loops { await loop.value }
    }

    /// Ends every stream and the connection, without waiting (`shutdown` waits).
    func stop() {
        let (watchers, loop) = state.withLock { state in
            defer {
                state.stopped = true
                state.watchers = [:]
                state.loop = nil
                state.session = nil
            }
            return (state.watchers.values.flatMap(\.values), state.loop)
        }
        loop?.cancel()
        for watcher in watchers { watcher.finish() }
    }

    private func unwatch(_ code: GroupCode, id: UUID) {
        let loop = state.withLock { state -> Task<Void, Never>? in
            state.watchers[code]?[id] = nil
            if state.watchers[code]?.isEmpty ?? false { state.watchers[code] = nil }
            guard state.watchers.isEmpty else { return nil }
            // Nobody watches: let go of the connection.
            defer {
                state.loop = nil
                state.session = nil
                state.listening = []
                state.generation += 1
            }
            return state.loop
        }
        loop?.cancel()
    }

    // MARK: - The connection

    private func run(generation: Int) async {
        if case .polling = following {
            await poll(generation: generation)
            return
        }
        var failures = 0
        while !Task.isCancelled {
            do {
                let configuration = try address.connectionConfiguration(applicationName: Self.applicationName)
                let id = connectionIDs.add(1, ordering: .relaxed).newValue
                let logger = self.logger
                // Bounded by the configuration's connect timeout.
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: id, logger: logger)
                var unheard = false
                do {
                    try await session(on: connection, generation: generation)
                } catch is ListenUnheard {
                    unheard = true
                } catch {
                    logger.debug("group change listener: connection ended: \(String(describing: error))")
                }
                try? await connection.close()
                if unheard {
                    logger.notice(
                        "group changes: the server's notifications do not reach this client (a connection pooler?); asking every \(Self.pollInterval)"
                    )
                    state.withLock { $0.following = .polling(every: Self.pollInterval) }
                    await poll(generation: generation)
                    return
                }
            } catch {
                logger.debug("group change listener: cannot connect: \(String(describing: error))")
            }
            // A session that got as far as listening starts the back-off afresh.
            let ended = state.withLock { state -> (current: Bool, listened: Bool) in
                guard state.generation == generation else { return (false, false) }
                defer {
                    state.listening = []
                    state.session = nil
                }
                return (true, !state.listening.isEmpty)
            }
            guard ended.current, !Task.isCancelled else { break }
            let listened = ended.listened
            failures = listened ? 1 : failures + 1
            try? await Task.sleep(for: Self.reconnect.delay(afterFailures: failures))
        }
    }

    /// Listens for every watched code on `connection` until it fails (or the loop is cancelled).
    private func session(on connection: PostgresConnection, generation: Int) async throws {
        let (requests, request) = AsyncStream.makeStream(of: GroupCode.self)
        let codes = state.withLock { state -> [GroupCode]? in
            guard state.generation == generation else { return nil }
            state.session = request
            return Array(state.watchers.keys)
        }
        guard let codes else { return }
        if let pool = state.withLock({ $0.pool }) { try await probe(connection, pool: pool) }
        for code in codes { request.yield(code) }
        let turns = ListenTurns()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await self.keepAlive(connection)
                } catch {
                    request.finish()
                    throw error
                }
            }
            var started = Set<GroupCode>()
            for await code in requests where started.insert(code).inserted {
                group.addTask {
                    do {
                        try await self.listen(for: code, on: connection, generation: generation, turns: turns)
                    } catch {
                        request.finish()
                        throw error
                    }
                }
            }
            group.cancelAll()
            while (try await group.next()) != nil {}
        }
    }

    /// Asks the server, at once and every `keepAliveInterval`, whether its writes leave their notices out
    /// (`notices_skipped`: a notification queue near full, which a member can hold); while they
    /// do, asks every `pollInterval` and tells every watcher to read again each time, and once
    /// more when the notices are back.
    private func keepAlive(_ connection: PostgresConnection) async throws {
        var skipped = false
        defer { state.withLock { $0.noticesSkipped = false } }
        while true {
            let logger = self.logger
            let now = try await withDeadline(address.timeout, overdue: overdue) {
                let rows = try await connection.query("SELECT screenmates.notices_skipped()", logger: logger).collect()
                return try rows.first?.decode(Bool.self) ?? false
            }
            if now != skipped {
                logger.notice(
                    now
                        ? "group changes: the server leaves its notices out for now (its notification queue is near full); asking every \(Self.pollInterval)"
                        : "group changes: the server's notices are back")
                state.withLock { $0.noticesSkipped = now }
            }
            if now || skipped { signalEveryWatcher() }
            skipped = now
            try await Task.sleep(for: skipped ? Self.pollInterval : Self.keepAliveInterval)
        }
    }

    private func listen(
        for code: GroupCode, on connection: PostgresConnection, generation: Int, turns: ListenTurns
    ) async throws {
        let logger = self.logger
        guard let me = caller(code) else { return }
        // postgres-nio stops the program when a notification comes in after its LISTEN took
        // effect but before the server said it was ready again (it still counts the channel as
        // starting), which a busy group's notifications do sooner or later. So the LISTEN runs in
        // a transaction of ours, which postgres-nio's Sync does not end: it takes effect at our
        // COMMIT, once postgres-nio counts the channel as listened to. A transaction is the
        // connection's, so the channels take turns, from asking for the channel to that COMMIT.
        await turns.take()
        let turn = Turn(turns)
        defer { turn.end() }
        let channel: String?
        do {
            channel = try await withDeadline(address.timeout, overdue: overdue) {
                let rows = try await connection.query(
                    "SELECT screenmates.group_channel(\(me.id), \(me.secret), \(code.value))", logger: logger
                ).collect()
                return try rows.first?.decode(String?.self) ?? nil
            }
        } catch let error as PSQLError where error.code == .server {
            // Refused (not a member, not this member's secret): nothing to listen to.
            logger.debug("group change listener: the server refused the group's channel")
            return
        }
        // A code that names no group has no changes to signal (looking it up again and again
        // would count as guessing codes); the next connection looks once more.
        guard let channel else { return }
        guard Self.isGenerated(channel) else {
            logger.error("group change listener: the server named an unexpected channel; not listening")
            return
        }
        _ = try await connection.query("BEGIN", logger: logger).collect()
        try await connection.listen(on: channel) { notifications in
            _ = try await connection.query("COMMIT", logger: logger).collect()
            turn.end()
            self.startedListening(code, generation: generation)
            for try await _ in notifications { self.signal(code) }
        }
    }
}
