import Encoder
import FLV
import Media
import Testing
@testable import CamcastDaemon
@testable import Outputs

/// Issue 14 #3: past 2^32 ms of stream time (49.7 days) the stream used to throw
/// `timestampOutOfRange` and end the run. Stream time is 64-bit; RTMP/FLV timestamps wrap by the spec.
@Suite("Stream clock past 2^32 ms")
struct StreamClockWrapTests {
    static let sets = H264ParameterSets(sps: [0x67, 0x42, 0xC0, 0x1E, 0xD9], pps: [0x68, 0xCE, 0x3C, 0x80])
    static let metadata = try! FLVTag(type: .scriptData, timestamp: 0, body: [0x02, 0x00, 0x00])

    static func picture(_ milliseconds: Int64, keyframe: Bool = false, cts: Int64 = 0) throws -> EncodedPicture {
        EncodedPicture(
            nalUnits: [try NALUnit(bytes: [keyframe ? 0x65 : 0x41, 0x88])], isKeyframe: keyframe,
            pts: milliseconds + cts, dts: milliseconds, parameterSets: sets)
    }

    @Test func streamTimeRunsPastTwoToTheThirtyTwoAndTagsWrap() throws {
        let assembler = MediaPacketAssembler()
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        _ = try muxer.tags(for: assembler.packet(for: Self.picture(1000, keyframe: true)))
        let late = assembler.packet(for: try Self.picture(1000 + Int64(UInt32.max) + 34))
        #expect(late.dts == Int64(UInt32.max) + 34)
        #expect(try muxer.tags(for: late).map(\.timestamp) == [33])
        #expect(assembler.streamTime(ofCaptureTime: 1000 + Int64(UInt32.max) + 100) == Int64(UInt32.max) + 100)
        #expect(muxer.endOfSequence(at: Int64(UInt32.max) + 100).timestamp == 99)
    }

    /// The test-only origin puts the start just below the wrap; a frame's composition time that
    /// straddles it is worked out before wrapping.
    @Test func anOriginJustBelowTheWrapCrossesItWithTheRightCompositionTime() throws {
        let assembler = MediaPacketAssembler(originMilliseconds: Int64(UInt32.max) - 20)
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        let first = try muxer.tags(for: assembler.packet(for: Self.picture(0, keyframe: true)))
        #expect(first.map(\.timestamp) == [UInt32.max - 20, UInt32.max - 20, UInt32.max - 20])
        let straddling = try muxer.tags(for: assembler.packet(for: Self.picture(10, cts: 33)))
        #expect(straddling[0].timestamp == UInt32.max - 10)
        #expect(try FLVVideoTagBody(parsing: straddling[0].body).compositionTime == 33)
        let after = try muxer.tags(for: assembler.packet(for: Self.picture(40)))
        #expect(after[0].timestamp == 19)
    }
}
