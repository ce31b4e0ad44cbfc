import Foundation
import Media
import Testing
import TestSupport
@testable import Recording

/// A picture in a segment lasts until the next one, wherever the source skipped slots: inside a
/// fragment, before a keyframe (a fragment's end) and at the file's end, where the next segment's
/// first keyframe says when it ends (issue 45). Read back by FFmpeg 8 (PyAV), which reads each
/// sample's duration from the fragment's `trun`; Debian's ffprobe 5.1 reports its own estimate
/// from the frame rate instead.
@Suite(.enabled(if: PyAV.interopTestsEnabled, Comment(rawValue: PyAV.interopSkipReason)))
struct SegmentFileDurationTests {
    /// Sample durations in `path`'s video track, in milliseconds, in decode order.
    static func pictureDurations(_ path: String) throws -> [Int64] {
        let output = try PyAV.run(
            """
            import av, sys
            with av.open(sys.argv[1]) as container:
                stream = container.streams.video[0]
                for packet in container.demux(stream):
                    if packet.dts is not None and packet.size > 0:
                        print(round(packet.duration * packet.time_base * 1000))
            """, [path])
        return output.split(separator: "\n").compactMap { Int64($0) }
    }

    @Test func everyPictureLastsUntilTheNextOneSkippedSlotsIncluded() throws {
        let directory = try Project.scratchDirectory("segment-durations")
        // Pictures 0-39, a keyframe every 10, 33 ms apart. Left out, as a loaded source skips
        // them: 5 and 6 (inside a fragment), 9 (before the keyframe at 10: a fragment's last
        // picture lasts 66 ms) and 29 (the file ends at the keyframe at 30, the next file's first).
        let skipped: Set<Int> = [5, 6, 9, 29]
        let all = try SegmentStartTests.pictures()
        let kept = all.prefix(30).enumerated().filter { !skipped.contains($0.offset) }.map(\.element)
        let path = directory.appendingPathComponent("gaps.mp4").path
        let file = try SegmentFile(
            path: path, keyframe: kept[0], stream: RecordedStream(width: 64, height: 64, frameRate: FrameRate(numerator: 30)),
            audioConfiguration: nil)
        for picture in kept.dropFirst() { try file.write(picture) }
        try file.finish(endingAt: all[30].dts)

        let gaps = zip(kept, kept.dropFirst()).map { $1.dts - $0.dts } + [all[30].dts - kept[kept.count - 1].dts]
        #expect(gaps.filter { $0 > 33 } == [99, 66, 66], "the pictures left out make the gaps under test")
        #expect(try Self.pictureDurations(path) == gaps)
        #expect(file.completeFragments == 3)
    }

    @Test func theLastPictureOfARecordingLastsOneInterval() throws {
        let directory = try Project.scratchDirectory("segment-durations-end")
        let pictures = try SegmentStartTests.pictures().prefix(12)
        let path = directory.appendingPathComponent("end.mp4").path
        let file = try SegmentFile(
            path: path, keyframe: pictures[0], stream: RecordedStream(width: 64, height: 64, frameRate: FrameRate(numerator: 30)),
            audioConfiguration: nil)
        for picture in pictures.dropFirst() { try file.write(picture) }
        try file.finish()
        #expect(try Self.pictureDurations(path) == Array(repeating: 33, count: 12))
    }
}
