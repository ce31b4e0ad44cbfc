import Encoder
import FLV
import Testing
@testable import CamcastDaemon

/// Issue 14 #3: past 2^32 ms of stream time (49.7 days) the stream used to throw
/// `timestampOutOfRange` and end the run. RTMP timestamps wrap by the spec instead.
@Suite("Stream clock past 2^32 ms")
struct StreamClockWrapTests {
    static let sets = H264ParameterSets(sps: [0x67, 0x42, 0xC0, 0x1E, 0xD9], pps: [0x68, 0xCE, 0x3C, 0x80])

    static func picture(_ milliseconds: Int64, keyframe: Bool = false, cts: Int64 = 0, first: Bool = false) throws -> EncodedPicture {
        EncodedPicture(
            nalUnits: [try NALUnit(bytes: [keyframe ? 0x65 : 0x41, 0x88])], isKeyframe: keyframe,
            pts: milliseconds + cts, dts: milliseconds, parameterSets: sets, parameterSetsChanged: first, frameNumber: 0)
    }

    @Test func timestampsWrapPastTwoToTheThirtyTwoMilliseconds() throws {
        var assembler = FLVStreamAssembler()
        _ = try assembler.packets(for: Self.picture(1000, keyframe: true, first: true))
        let late = try assembler.packets(for: Self.picture(1000 + Int64(UInt32.max) + 34))
        #expect(late.map(\.tag.timestamp) == [33])
        #expect(assembler.streamTime(ofCaptureTime: 1000 + Int64(UInt32.max) + 100) == 99)
    }

    /// The test-only origin puts the start just below the wrap; a frame's composition time that
    /// straddles it is worked out before wrapping.
    @Test func anOriginJustBelowTheWrapCrossesItWithTheRightCompositionTime() throws {
        var assembler = FLVStreamAssembler(originMilliseconds: Int64(UInt32.max) - 20)
        let first = try assembler.packets(for: Self.picture(0, keyframe: true, first: true))
        #expect(first.map(\.tag.timestamp) == [UInt32.max - 20, UInt32.max - 20])
        let straddling = try assembler.packets(for: Self.picture(10, cts: 33))
        #expect(straddling[0].tag.timestamp == UInt32.max - 10)
        #expect(try FLVVideoTagBody(parsing: straddling[0].tag.body).compositionTime == 33)
        let after = try assembler.packets(for: Self.picture(40))
        #expect(after[0].tag.timestamp == 19)
    }
}
