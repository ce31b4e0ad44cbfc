import Encoder
import Media
import Testing
@testable import CamcastDaemon

/// An H.265 picture becomes an H.265 packet: VPS/SPS/PPS in the decoder configuration, not in
/// the units.
@Suite struct MediaPacketAssemblerHEVCTests {
    @Test func h265PicturesBecomeH265PacketsWithTheirParameterSetsOutOfBand() {
        let vps: [UInt8] = [0x40, 0x01, 1], sps: [UInt8] = [0x42, 0x01, 2], pps: [UInt8] = [0x44, 0x01, 3]
        let idr: [UInt8] = [0x26, 0x01, 4], aud: [UInt8] = [0x46, 0x01, 0x50]
        let picture = EncodedPicture(
            codec: .h265, units: [aud, vps, sps, pps, idr], isKeyframe: true, pts: 5_000, dts: 5_000,
            decoderConfiguration: DecoderConfiguration(parameterSets: [vps, sps, pps]))
        let assembler = MediaPacketAssembler()
        let packet = assembler.packet(for: picture)
        #expect(packet.codec == .h265)
        #expect(packet.units == [idr])
        #expect(packet.decoderConfiguration.parameterSets == [vps, sps, pps])
        #expect(packet.isKeyframe && packet.dts == 0 && packet.captureTime == 5_000)
    }
}
