import Encoder
import FLV

/// Turns encoded pictures into FLV tags with stream-relative timestamps.
///
/// Timestamps are the capture clock's milliseconds minus the first picture's DTS (plus a start
/// offset, 0 except in tests), so the stream starts at 0 and keeps counting on the capture clock;
/// it never goes backwards because the encoder's DTS does not. A changed SPS/PPS produces a new
/// sequence header ahead of the picture.
///
/// RTMP and FLV timestamps are 32 bits of milliseconds: after 2^32 ms (49.7 days) they wrap to 0
/// and continue, which RTMP readers handle with serial-number arithmetic (RTMP spec §5.3.1.3,
/// RFC 1982). The composition time is worked out before the wrap, on 64-bit times. A file cannot
/// wrap inside itself: `FLVFileOutput` rolls to a new file when it sees the wrap.
struct FLVStreamAssembler {
    private let muxer = FLVMuxer()
    /// SPS/PPS travel in the sequence header; AUDs carry nothing FLV needs.
    private static let outOfBand: Set<NALUnitType> = [.sps, .pps, .aud]
    private var origin: Int64?
    private let startMilliseconds: Int64

    init(originMilliseconds: Int64 = 0) {
        startMilliseconds = originMilliseconds
    }

    mutating func packets(for picture: EncodedPicture) throws -> [StreamPacket] {
        let origin = self.origin ?? picture.dts
        self.origin = origin
        let dts = startMilliseconds + picture.dts - origin
        guard dts >= 0 else { throw PipelineError.timestampOutOfRange(dts) }
        var packets: [StreamPacket] = []
        if picture.parameterSetsChanged {
            let record = try AVCDecoderConfigurationRecord(
                sps: picture.parameterSets.sps, pps: picture.parameterSets.pps)
            packets.append(
                StreamPacket(
                    kind: .sequenceHeader, tag: try muxer.sequenceHeaderTag(record, timestamp: Self.wrapped(dts)),
                    captureTime: picture.pts))
        }
        let nalUnits = picture.nalUnits.filter { !Self.outOfBand.contains($0.type) }.map(\.bytes)
        let tag = try muxer.videoTag(nalUnits: nalUnits, isKeyframe: picture.isKeyframe, dts: Self.wrapped(dts),
            compositionTime: picture.compositionTimeOffset)
        packets.append(StreamPacket(kind: picture.isKeyframe ? .keyframe : .interFrame, tag: tag, captureTime: picture.pts))
        return packets
    }

    /// Stream time of the latest picture, for the end-of-sequence tag.
    func streamTime(ofCaptureTime milliseconds: Int64) -> UInt32 {
        guard let origin else { return Self.wrapped(startMilliseconds) }
        return Self.wrapped(startMilliseconds + max(0, milliseconds - origin))
    }

    /// The low 32 bits: RTMP's timestamp field, which wraps (serial-number arithmetic).
    static func wrapped(_ milliseconds: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: milliseconds)
    }
}
