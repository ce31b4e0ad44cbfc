import Testing
@testable import FLV

/// Picture tags built with headroom for RTMP's chunk headers (issue 26) carry the same body, in
/// one pass, as tags for files.
@Suite("FLV tags with headroom")
struct FLVTagHeadroomTests {
    static let units: [[UInt8]] = [[0x06, 0x05, 0x01, 0xFF], [0x65, 0x88, 0x84, 0x00, 0x33]]

    @Test("an AVC picture's body with headroom equals the one built the old way, golden bytes")
    func avcBody() throws {
        let muxer = FLVMuxer()
        let framed = try muxer.videoTag(nalUnits: Self.units, isKeyframe: true, dts: 40, compositionTime: 80, headroom: 18)
        let plain = try muxer.videoTag(nalUnits: Self.units, isKeyframe: true, dts: 40, compositionTime: 80)
        let expected: [UInt8] = [0x17, 0x01, 0x00, 0x00, 0x50]  // keyframe AVC, NALU, CompositionTime 80
            + [0, 0, 0, 4, 0x06, 0x05, 0x01, 0xFF] + [0, 0, 0, 5, 0x65, 0x88, 0x84, 0x00, 0x33]
        let old = try FLVVideoTagBody(
            frameType: .keyframe, avcPacketType: .nalu, compositionTime: 80,
            data: FLVVideoTagBody.avccPayload(nalUnits: Self.units)).encoded()
        #expect(framed.body == expected)
        #expect(old == expected)
        #expect(plain.body == expected)
        #expect(framed == plain)
        #expect(framed.headroom == 18 && framed.bodyCount == expected.count)
        #expect(framed.encoded() == plain.encoded())
    }

    @Test("an H.265 picture's body with headroom equals the one built the old way")
    func hevcBody() throws {
        let muxer = FLVMuxer()
        for compositionTime: Int64 in [0, 40] {
            let framed = try muxer.hevcVideoTag(nalUnits: Self.units, isKeyframe: false, dts: 0, compositionTime: compositionTime, headroom: 18)
            let old = try FLVExVideoTagBody.codedFrame(
                isKeyframe: false, fourCC: .hevc, compositionTime: Int32(compositionTime),
                data: FLVVideoTagBody.avccPayload(nalUnits: Self.units)).encoded()
            #expect(framed.body == old)
        }
    }

    @Test("taking the storage moves headroom and body out and leaves the tag empty")
    func takeStorage() throws {
        var tag = try FLVMuxer().videoTag(nalUnits: Self.units, isKeyframe: false, dts: 0, compositionTime: 0, headroom: 18)
        let body = tag.body
        let (bytes, headroom) = tag.takeStorage()
        #expect(headroom == 18 && Array(bytes[18...]) == body)
        #expect(tag.bodyCount == 0 && tag.headroom == 0)
    }
}
