import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs `query` on one of the pool's connections and reads every row it answers; the
    /// connection goes back to the pool however the query ends.
    ///
    /// Every call of the store goes through here rather than `PostgresClient.query`. With
    /// postgres-nio 1.33.2, a query whose server error (a refusal of ours, `RAISE`d by the
    /// schema) was read before the caller took its rows never gave its connection back: the
    /// row stream ended in that error without telling the pool. With the store's single
    /// connection every later call then waited for ever, each giving up after the address's
    /// timeout — seen in the group-store contract, whose refusals hung about half of its runs on
    /// this machine. `withConnection` gives the connection back when the closure ends.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await withConnection { connection in
            try await connection.query(query, logger: Self.silentLogger).collect()
        }
    }

    /// `rows` for a call that writes, in a transaction of its own (BEGIN, the call, COMMIT): an
    /// error the server meets only as it commits (a full notification queue, a deferred check)
    /// then comes back as the COMMIT's and is thrown. Sent as one statement, the server's answer
    /// came back first and the commit's error after it, which postgres-nio takes for a broken
    /// connection, not for this call's: `sync` said "Synced" for a write that was never stored.
    func writeRows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await withTransaction(logger: Self.silentLogger) { connection in
            try await connection.query(query, logger: Self.silentLogger).collect()
        }
    }

    private static let silentLogger = Logger(
        label: "ScreenMates.groups.postgres.query",
        factory: { _ in
            SwiftLogNoOpLogHandler()
        })
}
