import Foundation
import Glibc

/// Looks for committed changes that a crash left in the write-ahead log and that are no longer
/// there: the WAL index (`-shm`) says the log holds changes not yet copied into the database,
/// but the log (`-wal`) is missing or too short. SQLite would open such a database without a
/// word and show an older state; we report it instead.
///
/// Only meaningful when no other process has the database open.
enum WriteAheadLogCheck {
    static func check(databaseAt path: String) throws(StoreError) {
        guard let index = FileManager.default.contents(atPath: path + "-shm"), index.count >= 104 else { return }
        let bytes = [UInt8](index.prefix(104))
        // The index header is kept twice (bytes 0–47 and 48–95); a torn write makes SQLite
        // rebuild it from the log, which is safe.
        guard bytes[12] == 1, bytes[0..<48] == bytes[48..<96] else { return }
        let pageSize = Int(UInt16(bytes[14]) | UInt16(bytes[15]) << 8)
        let lastFrame = Int(word(bytes, at: 16))
        let copiedFrames = Int(word(bytes, at: 96))
        guard lastFrame > copiedFrames else { return }
        let frameSize = 24 + (pageSize == 1 ? 65536 : pageSize)
        let needed = 32 + lastFrame * frameSize
        var info = stat()
        guard stat(path + "-wal", &info) == 0 else {
            throw .damaged(
                path: path,
                detail: "its write-ahead log \(path)-wal is missing, but the log index says it held "
                    + "\(lastFrame - copiedFrames) page changes not yet in the database")
        }
        if Int(info.st_size) < needed {
            throw .damaged(
                path: path,
                detail: "its write-ahead log \(path)-wal is \(info.st_size) bytes, shorter than the \(needed) "
                    + "its index promises")
        }
    }

    /// A 32-bit word in the machine's byte order, as SQLite writes the index.
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
