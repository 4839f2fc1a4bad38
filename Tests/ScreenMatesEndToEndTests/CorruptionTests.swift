import Foundation
import GRDB
import Glibc
import ScreenMatesStore
import ScreenMatesTestSupport
import Testing

/// A damaged local database is named with the way out, never replaced; `recover` saves what
/// can be read into a new database and keeps the damaged one aside.
@Suite struct CorruptionTests {
    let binary = Binary.path

    /// A home with `count` events, written and closed cleanly.
    private func homeWithEvents(_ count: Int) async throws -> Binary.Home {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let monitor = try await Binary.run([
            "monitor", "--home", home.path, "--rate", "max", "--count", "\(count)", "--quiet",
        ])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        return home
    }

    private func expectDamagedMessage(_ home: Binary.Home, detail: String? = nil) async throws {
        for command in [["status"], ["monitor", "--rate", "max", "--count", "1"]] {
            let result = try await Binary.run(command + ["--home", home.path])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(home.path + "/local.sqlite"), "\(result.stderr)")
            #expect(result.stderr.contains("damaged"), "\(result.stderr)")
            #expect(result.stderr.contains("screenmates recover"), "\(result.stderr)")
            if let detail { #expect(result.stderr.contains(detail), "\(result.stderr)") }
        }
    }

    private func recover(_ home: Binary.Home) async throws -> String {
        let result = try await Binary.run(["recover", "--home", home.path])
        #expect(result.status == 0, "\(result.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.contains(".damaged-") }
        #expect(kept.contains { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "the damaged file must be kept")
        #expect(try await Binary.run(["status", "--home", home.path]).status == 0)
        return result.stdout
    }

    private func savedCount(_ output: String) -> Int? {
        output.split(separator: "\n").lazy.compactMap { line -> Int? in
            guard line.contains("usage event") else { return nil }
            return Int(line.split(separator: " ").first ?? "")
        }.first
    }

    /// Events the report counts as unreadable (0 when it names none).
    private func lostCount(_ output: String) -> Int {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("unreadable") }),
            let words = line.split(separator: ",").last?.split(separator: " "), let number = words.first
        else { return 0 }
        return Int(number) ?? 0
    }

    @Test func aTruncatedDatabaseIsReportedAndRecoverSavesTheRest() async throws {
        let home = try await homeWithEvents(3000)
        let path = home.path + "/local.sqlite"
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        truncate(path, off_t(size / 2))
        let damaged = FileManager.default.contents(atPath: path)
        try await expectDamagedMessage(home)
        #expect(FileManager.default.contents(atPath: path) == damaged, "a damaged file must be left as it was")
        let output = try await recover(home)
        let saved = try #require(savedCount(output), "\(output)")
        #expect(saved > 0 && saved < 3000, "\(output)")
        #expect(saved + lostCount(output) == 3000, "every event is either saved or counted as lost:\n\(output)")
        #expect(output.contains("your profile"), "\(output)")
        let status = try await Binary.run(["status", "--home", home.path, "--json"])
        #expect(status.stdout.contains("\"eventsApplied\" : \(saved)"), "\(status.stdout)")
        #expect(status.stdout.contains("\"ana\""))
    }

    @Test func overwrittenPagesAreReportedAndRecoverSavesTheReadableRows() async throws {
        let home = try await homeWithEvents(3000)
        let path = home.path + "/local.sqlite"
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4096 * 6)
        handle.write(Data((0..<(4096 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        try handle.close()
        try await expectDamagedMessage(home)
        let output = try await recover(home)
        let saved = try #require(savedCount(output), "\(output)")
        // Which rows are lost depends on what the overwritten pages held (rows or an index).
        #expect(saved >= 2000 && saved + lostCount(output) == 3000, "\(output)")
    }

    @Test func aMissingWriteAheadLogAfterACrashIsReported() async throws {
        let home = Binary.Home()
        #expect(try await Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        // Killed mid-run: its last commits live only in the write-ahead log.
        let monitor = try await SpawnedProcess(
            binary, ["monitor", "--home", home.path, "--rate", "100", "--seed", "8"])
        let deadline = ContinuousClock.now + .seconds(60)
        while monitor.lines.count < 150 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        monitor.kill()
        await monitor.wait()
        let acknowledged = monitor.lines.count
        #expect(acknowledged >= 150)
        #expect(unlink(home.path + "/local.sqlite-wal") == 0)
        try await expectDamagedMessage(home, detail: "write-ahead log")
        let output = try await recover(home)
        let saved = try #require(savedCount(output), "\(output)")
        #expect(saved < acknowledged, "\(output)")
    }

    /// The files of a home, and the bytes of its database and write-ahead log.
    private func snapshot(_ home: Binary.Home) throws -> (names: [String], database: Data?, log: Data?) {
        let path = home.path + "/local.sqlite"
        return (
            try FileManager.default.contentsOfDirectory(atPath: home.path).sorted(),
            FileManager.default.contents(atPath: path), FileManager.default.contents(atPath: path + "-wal")
        )
    }

    /// A monitor that has the store open and is stopped (SIGSTOP), so it holds the store without
    /// writing to it.
    private func stoppedHolder(_ home: Binary.Home) async throws -> SpawnedProcess {
        let holder = try await SpawnedProcess(binary, ["monitor", "--home", home.path, "--rate", "1", "--seed", "77"])
        let deadline = ContinuousClock.now + .seconds(60)
        while holder.lines.isEmpty && !holder.hasEnded && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(!holder.lines.isEmpty, "the monitor never wrote: \(holder.standardError)")
        holder.kill(SIGSTOP)
        // The signal is sent from a task of its own: the files may be touched only once the
        // monitor has really stopped ('T' in /proc/PID/stat), or a write in hand lands after.
        while ContinuousClock.now < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(holder.pid)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[close...].dropFirst(2).first == "T" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return holder
    }

    /// Every row of every table, read without writing. (Opening the store for use bumps
    /// counters in the file's header, so its bytes are no measure of a change.)
    private func contents(_ home: Binary.Home) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: home.path + "/local.sqlite", configuration: configuration)
        return try database.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            return try tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { "\(table) \($0)" }.sorted()
            }
        }
    }

    @Test func recoverOnASoundDatabaseChangesNothing() async throws {
        let home = try await homeWithEvents(50)
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path).sorted()
        let rows = try contents(home)
        #expect(rows.count > 50)
        let sound = try await Binary.run(["recover", "--home", home.path])
        #expect(sound.status == 0, "\(sound.stderr)")
        #expect(sound.stdout.contains("not damaged"), "\(sound.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == names, "files came or went")
        #expect(try contents(home) == rows, "recover changed a sound database")

        // With a monitor holding the store open, a sound database is left alone all the same.
        let holder = try await stoppedHolder(home)
        let held = try contents(home)
        let heldNames = try FileManager.default.contentsOfDirectory(atPath: home.path).sorted()
        let inUse = try await Binary.run(["recover", "--home", home.path])
        #expect(!inUse.stdout.contains("Recovered"), "\(inUse.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == heldNames)
        #expect(try contents(home) == held, "recover changed a sound database in use")
        holder.kill(SIGKILL)
        await holder.wait()
    }

    /// A damaged database that a running monitor still has open is not recovered under it:
    /// `recover` refuses, names the file and what to stop, and changes nothing. Once the monitor
    /// is gone, `recover` does its work.
    @Test func recoverRefusesWhileTheDatabaseIsInUseAndWorksOnceItIsNot() async throws {
        let home = try await homeWithEvents(50)
        let holder = try await stoppedHolder(home)
        // Damaged beyond reading, database and log alike.
        let path = home.path + "/local.sqlite"
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as! Int
            let handle = try #require(FileHandle(forUpdatingAtPath: file))
            handle.write(Data(repeating: 0x5A, count: max(size, 4096)))
            try handle.close()
        }
        let before = try snapshot(home)
        let refused = try await Binary.run(["recover", "--home", home.path])
        #expect(refused.status != 0, "recover ran under a monitor: \(refused.stdout)")
        #expect(refused.stderr.contains(path) && refused.stderr.contains("in use"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Stop"), "\(refused.stderr)")
        let after = try snapshot(home)
        #expect(after.names == before.names, "a refused recover added or removed files")
        #expect(after.database == before.database && after.log == before.log, "a refused recover changed the files")

        holder.kill(SIGKILL)
        #expect(await holder.wait() == 128 + SIGKILL)
        let recovered = try await Binary.run(["recover", "--home", home.path])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stdout.contains("Recovered"), "\(recovered.stdout)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: home.path).filter {
            $0.contains(".damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
        #expect(kept.count == 1, "the damaged file is kept aside: \(kept)")
        if let copy = kept.first {
            #expect(FileManager.default.contents(atPath: home.path + "/" + copy) == before.database)
        }
    }
}
