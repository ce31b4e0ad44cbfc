@testable import Capture
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A file source lends frames mapped from its file; a file cut shorter under a mapping must read
/// as zeros and be reported, not raise SIGBUS (which, unguarded, ends this test process).
@Suite struct FileMappingTests {
    static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// A scratch file of `pages` pages of 0xAB, open for reading and writing.
    static func scratchFile(pages: Int) throws -> (descriptor: Int32, path: String) {
        let path = NSTemporaryDirectory() + "camcast-mapping-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Data(repeating: 0xAB, count: pages * page).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDWR)
        try #require(descriptor >= 0, "open \(path): errno \(errno)")
        return (descriptor, path)
    }

    static func sum(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.reduce(0) { $0 + Int($1) }
    }

    @Test func aMappedSpanReadsTheFileAndUnmapsUncut() throws {
        let file = try Self.scratchFile(pages: 8)
        defer { close(file.descriptor); unlink(file.path) }
        // An offset inside a page: the span starts part way into the first mapped page.
        let mapping = try #require(FileMapping(descriptor: file.descriptor, offset: Self.page + 100, count: 3 * Self.page))
        #expect(mapping.bytes.count == 3 * Self.page)
        #expect(Self.sum(mapping.bytes) == 0xAB * 3 * Self.page)
        #expect(mapping.unmap() == false)
    }

    @Test func aFileCutShorterUnderAMappingReadsAsZerosAndIsReported() throws {
        let file = try Self.scratchFile(pages: 8)
        defer { close(file.descriptor); unlink(file.path) }
        let mapping = try #require(FileMapping(descriptor: file.descriptor, offset: 2 * Self.page, count: 4 * Self.page))
        // As `cp new.y4m clip.y4m` does first: the file is emptied while the frame is lent.
        try #require(ftruncate(file.descriptor, 0) == 0)
        #expect(Self.sum(mapping.bytes) == 0)
        #expect(mapping.unmap() == true)
        // The guard's slot is free again: a new mapping of a file that is whole reads it.
        try #require(ftruncate(file.descriptor, off_t(8 * Self.page)) == 0)
        let again = try #require(FileMapping(descriptor: file.descriptor, offset: 0, count: Self.page))
        #expect(again.unmap() == false)
    }

    @Test func mappingsBeyondTheGuardsCapacityAreRefusedSoTheCallerReads() throws {
        let file = try Self.scratchFile(pages: 2)
        defer { close(file.descriptor); unlink(file.path) }
        var held: [FileMapping] = []
        while held.count <= MappedFileFaultGuard.capacity,
            let mapping = FileMapping(descriptor: file.descriptor, offset: 0, count: Self.page)
        {
            held.append(mapping)
        }
        // Other suites may hold a slot while this runs: at most `capacity` in all, never more.
        #expect(!held.isEmpty && held.count <= MappedFileFaultGuard.capacity)
        for mapping in held { mapping.unmap() }
        #expect(FileMapping(descriptor: file.descriptor, offset: 0, count: Self.page)?.unmap() == false)
    }
}
