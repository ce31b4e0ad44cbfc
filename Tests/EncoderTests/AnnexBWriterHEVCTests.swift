import Encoder
import Foundation
import Media
import Testing

/// The `.h265` output's writer: H.265 packets behind start codes, VPS/SPS/PPS in front of every
/// keyframe and of any other IRAP picture, nothing before the first keyframe.
@Suite struct AnnexBWriterHEVCTests {
    // Two-byte H.265 NAL headers: type << 1, then nuh_temporal_id_plus1 = 1.
    static let vps: [UInt8] = [0x40, 0x01, 0xAA]  // type 32
    static let sps: [UInt8] = [0x42, 0x01, 0xBB]  // type 33
    static let pps: [UInt8] = [0x44, 0x01, 0xCC]  // type 34
    static let idr: [UInt8] = [0x26, 0x01, 0x11]  // type 19, IDR_W_RADL
    static let trail: [UInt8] = [0x02, 0x01, 0x22]  // type 1, TRAIL_R
    static let cra: [UInt8] = [0x2A, 0x01, 0x33]  // type 21, CRA

    static func packet(_ units: [[UInt8]], key: Bool) -> MediaPacket {
        MediaPacket(
            codec: .h265, decoderConfiguration: DecoderConfiguration(parameterSets: [vps, sps, pps]), isKeyframe: key,
            dts: 0, pts: 0, captureTime: 0, units: units)
    }

    @Test func parameterSetsGoBeforeEveryIRAPPicture() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hevc-\(UUID().uuidString).h265").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AnnexBWriter(path: path)
        #expect(try !writer.write(Self.packet([Self.trail], key: false)), "nothing before the first keyframe")
        #expect(try writer.write(Self.packet([Self.idr], key: true)))
        #expect(try writer.write(Self.packet([Self.trail], key: false)))
        // A CRA the encoder did not flag as a keyframe (an open-GOP scene cut) still gets them.
        #expect(try writer.write(Self.packet([Self.cra], key: false)))
        writer.close()
        let start: [UInt8] = [0, 0, 0, 1]
        let expected =
            start + Self.vps + start + Self.sps + start + Self.pps + start + Self.idr  // keyframe
            + start + Self.trail  // picture: its slice only
            + start + Self.vps + start + Self.sps + start + Self.pps + start + Self.cra  // IRAP
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        #expect(writer.framesWritten == 3)
    }

    @Test func theNALTypesAreReadFromTheTwoByteHeader() {
        #expect(HEVCNALUnitType(unit: Self.vps) == .vps)
        #expect(HEVCNALUnitType(unit: Self.idr)?.isIDR == true)
        #expect(HEVCNALUnitType(unit: Self.cra)?.isIRAP == true && HEVCNALUnitType(unit: Self.cra)?.isIDR == false)
        #expect(HEVCNALUnitType(unit: Self.trail)?.isIRAP == false)
        #expect(VideoCodec.h265.isOutOfBand(Self.sps) && !VideoCodec.h265.isOutOfBand(Self.idr))
        // The same first byte read as H.264 would be another type: the codec decides.
        #expect(VideoCodec.h264.nalUnitType([0x67]) == 7 && VideoCodec.h265.nalUnitType([0x67, 0x01]) == 51)
    }
}
