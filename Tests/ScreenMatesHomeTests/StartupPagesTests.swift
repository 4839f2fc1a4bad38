import Foundation
import Testing

@testable import ScreenMatesHome

#if canImport(Glibc)
    import Glibc
#endif

/// Handing back start-up pages: a file's untouched pages are unmapped, never a page of the
/// process's own.
@Suite struct StartupPagesTests {
    @Test func smapsIsReadIntoMappingsWithTheirResidentAndPrivatePages() {
        let text = """
            55d0c0000000-55d0c0800000 r--p 00000000 fe:00 123   /opt/screenmates/bin/screenmates (deleted)
            Size:               8192 kB
            Rss:                2048 kB
            Anonymous:             0 kB
            VmFlags: rd mr mw me
            55d0c0800000-55d0c0900000 r--p 00800000 fe:00 123   /opt/screenmates/bin/screenmates
            Rss:                 512 kB
            Anonymous:           500 kB
            55d0c0880000-55d0c0890000 r--p 00880000 fe:00 123   /opt/screenmates/bin/screenmates
            Rss:                  16 kB
            Anonymous:             0 kB
            Swap:                 48 kB
            55d0c0900000-55d0c0a00000 rw-p 00900000 fe:00 123   /opt/screenmates/bin/screenmates
            Rss:                  64 kB
            Anonymous:             0 kB
            7f0000000000-7f0000100000 r--p 00000000 00:00 0   [vvar]
            Rss:                   8 kB
            Anonymous:             0 kB
            7f0000200000-7f0000300000 r-xp 00000000 fe:00 9   /usr/lib/x86_64-linux-gnu/libc.so.6
            Rss:                   0 kB
            Anonymous:             0 kB
            """
        let mappings = StartupPages.mappings(smaps: text)
        #expect(mappings.count == 6)
        #expect(mappings[0].path == "/opt/screenmates/bin/screenmates (deleted)")
        #expect(mappings[0].start == 0x55d0_c000_0000 && mappings[0].end == 0x55d0_c080_0000)
        #expect(mappings[0].residentKB == 2048)
        #expect(mappings.map(\.releasable) == [true, false, false, false, false, false])
        #expect(mappings[1].anonymousKB == 500, "relocated data is the process's own")
        #expect(mappings[2].swappedKB == 48, "relocated data swapped out is the process's own too")
        #expect(mappings[3].writable)
    }

    @Test func smapsIsReadWholeThoughProcSaysItIsEmpty() throws {
        let text = try #require(StartupPages.smaps())
        #expect(text.utf8.count > 4096, "one page of it is a few mappings")
        #expect(
            StartupPages.mappings(smaps: text).contains { $0.path == "[stack]" },
            "the main stack, listed after every library")
    }

    @Test func onlyTheProgramAndItsSharedLibrariesAreHandedBack() throws {
        let files = StartupPages.loadedObjects(in: StartupPages.mappings(smaps: try #require(StartupPages.smaps())))
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(files.contains(program))
        #expect(files.contains { $0.hasSuffix("/libc.so.6") }, "\(files)")
        #expect(!files.contains { $0.hasPrefix("/usr/lib/locale") || $0.hasPrefix("[") })
        #expect(files.allSatisfy { $0.hasPrefix("/") })
    }

    @Test func onlyTheFilesNamedAreHandedBack() throws {
        let named = try MappedFile(size: 1 << 16)
        let other = try MappedFile(size: 1 << 16)
        #expect(try Self.mapping(at: named.address).residentKB > 0)
        #expect(try Self.mapping(at: other.address).residentKB > 0)
        StartupPages.release(files: [named.path])
        #expect(try Self.mapping(at: named.address).residentKB == 0)
        #expect(try Self.mapping(at: other.address).residentKB > 0, "a file not named is left as it is")
    }

    @Test func aFilesPagesAreHandedBackAndReadAgainWhileWrittenPagesStay() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("startup-pages-\(UUID()).bin")
        let size = 1 << 20
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let readOnly = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0))
        let written = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0))
        try #require(readOnly != MAP_FAILED && written != MAP_FAILED)
        defer {
            munmap(readOnly, size)
            munmap(written, size)
        }
        var sum = 0
        for offset in stride(from: 0, to: size, by: 4096) {
            sum &+= Int(readOnly.load(fromByteOffset: offset, as: UInt8.self))
        }
        written.storeBytes(of: 0xAB, toByteOffset: 4096, as: UInt8.self)
        try #require(mprotect(written, size, PROT_READ) == 0, "written, then read-only, as relocated data is")
        #expect(try Self.mapping(at: readOnly).residentKB >= 1024, "every page was touched (sum \(sum))")

        let released = StartupPages.release(files: [try #require(Self.resolved(url.path))])

        #expect(released >= 1024)
        #expect(try Self.mapping(at: readOnly).residentKB == 0, "the file's pages are dropped")
        #expect(Data(bytes: readOnly, count: size) == bytes, "and read again as they were")
        #expect(written.load(fromByteOffset: 4096, as: UInt8.self) == 0xAB, "a written page is the process's own")
        #expect(try Self.mapping(at: written).anonymousKB > 0)
    }

    /// The C library here (glibc) has `malloc_trim`, so the hand-back trims the heap too.
    @Test func theHeapIsTrimmedWithTheCLibrarysOwnFunction() {
        #expect(StartupPages.trimHeap())
    }

    /// A file of `size` bytes mapped read-only, every page touched; removed when it goes.
    final class MappedFile {
        let path: String
        let address: UnsafeMutableRawPointer
        let size: Int

        init(size: Int) throws {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("startup-pages-\(UUID()).bin")
            try Data(repeating: 7, count: size).write(to: url)
            path = try #require(StartupPagesTests.resolved(url.path))
            let descriptor = open(path, O_RDONLY)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let mapped = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0))
            try #require(mapped != MAP_FAILED)
            address = mapped
            self.size = size
            var sum = 0
            for offset in stride(from: 0, to: size, by: 4096) {
                sum &+= Int(mapped.load(fromByteOffset: offset, as: UInt8.self))
            }
            try #require(sum == 7 * size / 4096)
        }

        deinit {
            munmap(address, size)
            unlink(path)
        }
    }

    /// `path` with every symbolic link resolved, as `smaps` names a file.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    static func mapping(at address: UnsafeMutableRawPointer) throws -> StartupPages.Mapping {
        let text = try #require(StartupPages.smaps())
        let start = UInt(bitPattern: address)
        return try #require(StartupPages.mappings(smaps: text).first { $0.start == start })
    }
}
