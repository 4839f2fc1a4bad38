import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Hands back the pages of code and read-only data that start-up mapped and an idle process no
/// longer touches.
///
/// A program's code and read-only data are mapped from its files; every page touched stays in
/// the process's resident set until the process ends. Start-up touches much that the idle
/// dashboard or a waiting monitor never runs again (the argument parser, the migrations, the
/// config file's parser, ICU's time zone tables) and, since Linux maps the pages around each
/// page a fault asks for (64 KiB of them, or the whole large folio of the page cache they lie
/// in), pages next to them that nothing ran at all. `release` drops from the resident set the
/// pages of every read-only mapping of the program's file and of its shared libraries that
/// holds no page of the process's own (`MADV_DONTNEED`; the mappings stay): the files' pages
/// stay in the page cache while the kernel keeps them, and what the process touches next is
/// mapped again from there. A mapping with a private copy of a page, resident or swapped out
/// (data the loader relocated, then made read-only; anything written) is left alone, since
/// dropping it would bring back the file's bytes in its place.
///
/// The heap's free pages go back to the system at the same moment (`trimHeap`).
///
/// What goes down is this process's resident set; pages of a library other processes map
/// stay in memory for them. `release` reads the mappings and then advises on them: that is
/// safe because nothing in the program unloads a library (`dlclose`), so no listed range can be
/// unmapped and reused in between.
public enum StartupPages {
    /// How long after the start a long-running command hands its start-up pages back: by then
    /// the dashboard's first frame is drawn and its group connected.
    public static let delay: Duration = .seconds(3)

    /// Runs `operation` (a monitor: it runs until stopped) and, `delay` into it, hands back the
    /// pages only start-up touched; the timer is a child task that ends with the operation.
    public static func handedBack<Result: Sendable>(during operation: () async -> Result) async -> Result {
        await withTaskGroup(of: Void.self) { timer in
            timer.addTask {
                try? await Task.sleep(for: delay)
                if !Task.isCancelled { release() }
            }
            let result = await operation()
            timer.cancelAll()
            return result
        }
    }

    /// A mapping from `/proc/self/smaps`.
    struct Mapping: Equatable {
        var start: UInt
        var end: UInt
        var writable: Bool
        var path: String
        /// Kilobytes resident.
        var residentKB: Int
        /// Kilobytes of private copies (written or relocated), resident and swapped out.
        var anonymousKB: Int
        var swappedKB: Int

        /// Whether dropping its pages loses nothing: a file's pages, none of them a private copy.
        var releasable: Bool {
            !writable && path.hasPrefix("/") && anonymousKB == 0 && swappedKB == 0 && residentKB > 0
        }
    }

    /// Releases the releasable mappings of `files` (by default the program and its shared
    /// libraries: never a file something else mapped into the process, such as valgrind's own
    /// code); returns the kilobytes that were resident in them.
    @discardableResult
    package static func release(files: Set<String>? = nil) -> Int {
        guard let text = smaps() else { return 0 }
        let listed = mappings(smaps: text)
        let files = files ?? loadedObjects(in: listed)
        var released = 0
        for mapping in listed where mapping.releasable && files.contains(mapping.path) {
            let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
            if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
                released += mapping.residentKB
            }
        }
        trimHeap()
        return released
    }

    /// Gives the free pages inside the heap back to the system: what start-up allocated and
    /// freed stays resident otherwise (glibc returns only the heap's top on its own). Looked up
    /// by name, as the Glibc module does not export `malloc.h`; a C library without it
    /// (musl) keeps its heap as it is, and this returns false.
    @discardableResult
    static func trimHeap() -> Bool {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        // RTLD_DEFAULT, a null handle: the process's own symbols.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return false }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        return true
    }

    /// The program's file and the shared libraries mapped into the process, as `smaps` names
    /// them (what the loader loaded or `dlopen` opened; a shared library's name ends in `.so` or
    /// `.so.` and a version).
    static func loadedObjects(in mappings: [Mapping]) -> Set<String> {
        let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let paths = mappings.map(\.path).filter { path in
            let name = path.split(separator: "/").last ?? ""
            return path == program || name.hasSuffix(".so") || name.contains(".so.")
        }
        return Set(paths)
    }

    /// The process's `/proc/self/smaps`, whole (`String(contentsOfFile:)` reads a file of the
    /// size `stat` gives, and stops after the first page of a file in `/proc`).
    static func smaps() -> String? {
        guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
        defer { try? file.close() }
        return (try? file.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The mappings an `smaps` text lists, with the fields `releasable` needs. Line by line
    /// over the bytes, splitting only the mappings' own lines (a dozen fields follow each), so
    /// handing pages back does not itself leave the heap larger.
    static func mappings(smaps: String) -> [Mapping] {
        var result: [Mapping] = []
        let bytes = smaps.utf8
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let line = bytes[lineStart..<lineEnd]
            lineStart = lineEnd < bytes.endIndex ? bytes.index(after: lineEnd) : lineEnd
            guard let first = line.first else { continue }
            // A mapping's line starts with its address in lowercase hex; a field's with its name.
            let isMapping =
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(first)
            if isMapping {
                if let mapping = mapping(Substring(line)) { result.append(mapping) }
            } else if !result.isEmpty {
                if let value = kilobytes(line, named: "Rss:") {
                    result[result.count - 1].residentKB = value
                } else if let value = kilobytes(line, named: "Anonymous:") {
                    result[result.count - 1].anonymousKB = value
                } else if let value = kilobytes(line, named: "Swap:") {
                    result[result.count - 1].swappedKB = value
                }
            }
        }
        return result
    }

    /// A mapping's line: `start-end perms offset device inode [path]`.
    private static func mapping(_ line: Substring) -> Mapping? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 5 else { return nil }
        let bounds = fields[0].split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) else {
            return nil
        }
        let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
        return Mapping(
            start: start, end: end, writable: fields[1].contains("w"), path: path, residentKB: 0, anonymousKB: 0,
            swappedKB: 0)
    }

    /// The number of a field's line `Name:   123 kB`, if the line is that field's.
    private static func kilobytes(_ line: Substring.UTF8View, named name: StaticString) -> Int? {
        let prefix = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        guard line.starts(with: prefix) else { return nil }
        var value: Int?
        for byte in line.dropFirst(prefix.count) {
            if byte == UInt8(ascii: " ") {
                if value != nil { break }
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                value = (value ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
            } else {
                break
            }
        }
        return value
    }
}
