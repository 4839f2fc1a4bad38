import Foundation
import Glibc
import ScreenMatesStore
import Testing

/// A damaged local database is named with the way out, never replaced; `recover` saves what
/// can be read into a new database and keeps the damaged one aside.
@Suite struct CorruptionTests {
    let binary = Binary.path

    /// A home with `count` events, written and closed cleanly.
    private func homeWithEvents(_ count: Int) throws -> Binary.Home {
        let home = Binary.Home()
        #expect(try Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        let monitor = try Binary.run([
            "monitor", "--home", home.path, "--rate", "max", "--count", "\(count)", "--quiet",
        ])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        return home
    }

    private func expectDamagedMessage(_ home: Binary.Home, detail: String? = nil) throws {
        for command in [["status"], ["monitor", "--rate", "max", "--count", "1"]] {
            let result = try Binary.run(command + ["--home", home.path])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(home.path + "/local.sqlite"), "\(result.stderr)")
            #expect(result.stderr.contains("damaged"), "\(result.stderr)")
            #expect(result.stderr.contains("screenmates recover"), "\(result.stderr)")
            if let detail { #expect(result.stderr.contains(detail), "\(result.stderr)") }
        }
    }

    private func recover(_ home: Binary.Home) throws -> String {
        let result = try Binary.run(["recover", "--home", home.path])
        #expect(result.status == 0, "\(result.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.contains(".damaged-") }
        #expect(kept.contains { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "the damaged file must be kept")
        #expect(try Binary.run(["status", "--home", home.path]).status == 0)
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

    @Test func aTruncatedDatabaseIsReportedAndRecoverSavesTheRest() throws {
        let home = try homeWithEvents(3000)
        let path = home.path + "/local.sqlite"
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        truncate(path, off_t(size / 2))
        let damaged = FileManager.default.contents(atPath: path)
        try expectDamagedMessage(home)
        #expect(FileManager.default.contents(atPath: path) == damaged, "a damaged file must be left as it was")
        let output = try recover(home)
        let saved = try #require(savedCount(output), "\(output)")
        #expect(saved > 0 && saved < 3000, "\(output)")
        #expect(saved + lostCount(output) == 3000, "every event is either saved or counted as lost:\n\(output)")
        #expect(output.contains("your profile"), "\(output)")
        let status = try Binary.run(["status", "--home", home.path, "--json"])
        #expect(status.stdout.contains("\"eventsApplied\" : \(saved)"), "\(status.stdout)")
        #expect(status.stdout.contains("\"ana\""))
    }

    @Test func overwrittenPagesAreReportedAndRecoverSavesTheReadableRows() throws {
        let home = try homeWithEvents(3000)
        let path = home.path + "/local.sqlite"
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4096 * 6)
        handle.write(Data((0..<(4096 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        try handle.close()
        try expectDamagedMessage(home)
        let output = try recover(home)
        let saved = try #require(savedCount(output), "\(output)")
        // Which rows are lost depends on what the overwritten pages held (rows or an index).
        #expect(saved >= 2000 && saved + lostCount(output) == 3000, "\(output)")
    }

    @Test func aMissingWriteAheadLogAfterACrashIsReported() throws {
        let home = Binary.Home()
        #expect(try Binary.run(["setup", "--home", home.path, "--name", "ana"]).status == 0)
        // Killed mid-run: its last commits live only in the write-ahead log.
        let monitor = try SpawnedProcess(binary, ["monitor", "--home", home.path, "--rate", "100", "--seed", "8"])
        let deadline = Date().addingTimeInterval(20)
        while monitor.lines.count < 150 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        monitor.kill()
        monitor.wait()
        let acknowledged = monitor.lines.count
        #expect(acknowledged >= 150)
        #expect(unlink(home.path + "/local.sqlite-wal") == 0)
        try expectDamagedMessage(home, detail: "write-ahead log")
        let output = try recover(home)
        let saved = try #require(savedCount(output), "\(output)")
        #expect(saved < acknowledged, "\(output)")
    }

    @Test func recoverOnASoundDatabaseChangesNothingAndRefusesWhileInUse() throws {
        let home = try homeWithEvents(50)
        let sound = try Binary.run(["recover", "--home", home.path])
        #expect(sound.status == 0)
        #expect(sound.stdout.contains("not damaged"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).allSatisfy { !$0.contains("damaged") })
    }
}
