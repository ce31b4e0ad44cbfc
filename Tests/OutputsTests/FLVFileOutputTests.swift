import FLV
import Media
import Foundation
import Logging
import TestSupport
import Testing
@testable import Outputs

/// Issue 14 #9: a restart used to truncate the previous recording (O_TRUNC on the same path).
@Suite("FLV file output")
struct FLVFileOutputTests {
    static let metadata = try! FLVTag(type: .scriptData, timestamp: 0, body: [0x02, 0x00, 0x00])
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-flv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func anExistingRecordingIsNeverOverwritten() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cam.flv").path
        let previous = Data("previous recording".utf8)
        try previous.write(to: URL(fileURLWithPath: path))

        let output = FLVFileOutput(path: path, metadata: Self.metadata, logger: Self.logger) { _ in }
        try output.open()
        output.finish(endTime: 0, drainSeconds: 0)

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == previous)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.count == 2)
        let fresh = try #require(names.first { $0 != "cam.flv" })
        #expect(fresh.hasPrefix("cam-") && fresh.hasSuffix(".flv"), "\(fresh)")
        // The new file is an FLV of its own.
        let bytes = try Data(contentsOf: directory.appendingPathComponent(fresh))
        #expect(Array(bytes.prefix(3)) == Array("FLV".utf8))
    }

    @Test func freshNamesCountUpWhenTheTimeStampedOneIsTakenToo() {
        let taken: Set<String> = ["/r/cam.flv", "/r/cam-20261124-073012.flv", "/r/cam-20261124-073012-2.flv"]
        var local = tm()
        (local.tm_year, local.tm_mon, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, local.tm_isdst) = (126, 10, 24, 7, 30, 12, -1)
        let now = mktime(&local)
        #expect(FLVFileOutput.freshPath(for: "/r/cam.flv", now: now, exists: taken.contains) == "/r/cam-20261124-073012-3.flv")
        #expect(FLVFileOutput.freshPath(for: "/r/new.flv", now: now, exists: taken.contains) == "/r/new.flv")
    }

    @Test(arguments: [("/r/cam.flv", "flv"), ("/r/cam", ""), ("/r/.flv", ""), ("/r.d/cam", ""), ("cam.", ""), ("a.b.h264", "h264")])
    func theExtensionIsTheLastNamesOwn(path: String, ext: String) {
        #expect(FLVFileOutput.pathExtension(path) == ext)
    }
}

extension FLVFileOutputTests {
    /// Issue 14 #3: a file must not wrap inside itself; at the wrap the output rolls to a new file
    /// that starts at the next keyframe.
    @Test func theStreamClockWrapRollsToANewFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cam.flv").path
        let output = FLVFileOutput(path: path, metadata: Self.metadata, logger: Self.logger) { _ in }
        try output.open()
        let wrap = Int64(UInt32.max) + 1
        func packet(_ keyframe: Bool, _ dts: Int64) -> MediaPacket {
            var packet = FrameStream(gop: 1000).packet(1)
            packet.isKeyframe = keyframe
            packet.dts = dts
            packet.pts = dts
            return packet
        }
        output.write(packet(true, wrap - 51))
        output.write(packet(false, wrap - 18))
        output.write(packet(false, wrap + 16))  // past the wrap: not before a keyframe in the new file
        output.write(packet(true, wrap + 49))
        output.write(packet(false, wrap + 82))
        output.finish(endTime: wrap + 82, drainSeconds: 0)

        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names.count == 2, "\(names)")
        func timestamps(_ name: String) throws -> [UInt32] {
            try FLVReader.readFile(atPath: directory.appendingPathComponent(name).path).tags.map(\.timestamp)
        }
        // metadata, header, keyframe, inter frame, end of sequence.
        #expect(try timestamps("cam.flv") == [UInt32.max - 50, UInt32.max - 50, UInt32.max - 50, UInt32.max - 17, UInt32.max - 17])
        let second = try #require(names.first { $0 != "cam.flv" })
        #expect(try timestamps(second) == [49, 49, 49, 82, 82])
        #expect(output.statistics.sentFrames == 4)
    }
}

extension FLVFileOutputTests {
    /// Issue 25, on the container writer: a run that did not start leaves no header-only file,
    /// and a file that got media is finished, not removed.
    @Test func aRunThatDidNotStartLeavesNoFileButOneWithMediaIsKept() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.flv").path
        let unused = FLVFileOutput(path: empty, metadata: Self.metadata, logger: Self.logger) { _ in }
        try unused.open()
        #expect(FileManager.default.fileExists(atPath: empty))
        unused.discardIfUnused()
        #expect(!FileManager.default.fileExists(atPath: empty))

        let used = directory.appendingPathComponent("used.flv").path
        let output = FLVFileOutput(path: used, metadata: Self.metadata, logger: Self.logger) { _ in }
        try output.open()
        output.write(FrameStream(gop: 30).packet(0))
        output.discardIfUnused()
        let tags = try FLVReader.readFile(atPath: used).tags
        #expect(tags.contains { $0.type == .video })
    }
}
