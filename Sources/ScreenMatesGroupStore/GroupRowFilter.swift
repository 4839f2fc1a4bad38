import Synchronization

/// What one read of a group store keeps: every decoded row goes through `keep`, which gives its
/// value when the row is right and otherwise notes why it is left out. After the read, `report()`
/// tells the reading task (`LeftOutRows`) which rows were left out.
///
/// A reader in an engine adopts it with one call per row:
///
/// ```swift
/// var filter = GroupRowFilter()
/// let members = rows.compactMap { row in filter.keep(StoredMember(userID: …, displayName: …, …)) }
/// filter.report()
/// ```
///
/// `report()` must run in the reading task itself, not inside a database queue's closure (GRDB
/// runs those on its own threads, where the task's collector cannot be seen): a reader that
/// filters there hands `leftOut` back with its rows and reports after the await.
public struct GroupRowFilter: Sendable {
    /// The rows left out so far, in the order they were met.
    public private(set) var leftOut: [LeftOutRow] = []

    public init() {}

    /// The row's value when it is right; nil (and the row noted as left out) when it is not.
    public mutating func keep<Row: StoredGroupRow>(_ row: Row) -> Row.Value? {
        do {
            return try row.checked()
        } catch {
            leftOut.append(error)
            return nil
        }
    }

    /// Notes a row left out for a reason found outside `StoredGroupRow.checked` (a value of the
    /// wrong type in a column, say).
    public mutating func leaveOut(_ row: LeftOutRow) {
        leftOut.append(row)
    }

    /// Notes rows another filter left out.
    public mutating func leaveOut(contentsOf rows: [LeftOutRow]) {
        leftOut += rows
    }

    /// Tells the reading task which rows were left out.
    public func report() {
        LeftOutRows.report(leftOut)
    }
}

/// Carries the rows a group store's reads left out to whoever asked for the read, without
/// changing any method of `GroupStore`: a caller reads inside `collecting`, and every report made
/// by the reads in that task (and the tasks it starts) comes back with the result.
///
/// A read outside `collecting` still leaves its bad rows out; no one hears of them.
public enum LeftOutRows {
    /// The rows reported while one `collecting` runs.
    final class Collector: Sendable {
        let rows = Mutex<[LeftOutRow]>([])
    }

    @TaskLocal static var collector: Collector?

    /// Runs `body` and returns its result with the rows its reads left out: each row once, in the
    /// order first reported. An enclosing `collecting` hears of them too.
    public static func collecting<Value>(_ body: () async throws(GroupStoreError) -> Value)
        async throws(GroupStoreError) -> (value: Value, leftOut: [LeftOutRow])
    {
        let collector = Collector()
        let outcome: Result<Value, GroupStoreError> = await $collector.withValue(collector) {
            do throws(GroupStoreError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        var seen = Set<LeftOutRow>()
        let rows = collector.rows.withLock { $0 }.filter { seen.insert($0).inserted }
        report(rows)
        return (try outcome.get(), rows)
    }

    /// Tells the reading task about rows left out (nothing happens outside `collecting`).
    public static func report(_ rows: [LeftOutRow]) {
        guard !rows.isEmpty, let collector else { return }
        collector.rows.withLock { $0 += rows }
    }
}
