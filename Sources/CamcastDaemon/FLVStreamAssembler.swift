import Encoder
import FLV

/// Turns encoded pictures into FLV tags with stream-relative timestamps.
///
/// Timestamps are the capture clock's milliseconds minus the first picture's DTS, so the stream
/// starts at 0 and keeps counting on the capture clock; it never goes backwards because the
/// encoder's DTS does not. A changed SPS/PPS produces a new sequence header ahead of the picture.
struct FLVStreamAssembler {
    private let muxer = FLVMuxer()
    /// SPS/PPS travel in the sequence header; AUDs carry nothing FLV needs.
    private static let outOfBand: Set<NALUnitType> = [.sps, .pps, .aud]
    private var origin: Int64?

    mutating func packets(for picture: EncodedPicture) throws -> [StreamPacket] {
        let origin = self.origin ?? picture.dts
        self.origin = origin
        let dts = try Self.streamTime(picture.dts - origin)
        let pts = try Self.streamTime(picture.pts - origin)
        var packets: [StreamPacket] = []
        if picture.parameterSetsChanged {
            let record = try AVCDecoderConfigurationRecord(
                sps: picture.parameterSets.sps, pps: picture.parameterSets.pps)
            packets.append(
                StreamPacket(kind: .sequenceHeader, tag: try muxer.sequenceHeaderTag(record, timestamp: dts), captureTime: picture.pts))
        }
        let nalUnits = picture.nalUnits.filter { !Self.outOfBand.contains($0.type) }.map(\.bytes)
        let tag = try muxer.videoTag(nalUnits: nalUnits, isKeyframe: picture.isKeyframe, dts: dts, pts: pts)
        packets.append(StreamPacket(kind: picture.isKeyframe ? .keyframe : .interFrame, tag: tag, captureTime: picture.pts))
        return packets
    }

    /// Stream time of the latest picture, for the end-of-sequence tag.
    func streamTime(ofCaptureTime milliseconds: Int64) -> UInt32 {
        guard let origin else { return 0 }
        return UInt32(clamping: max(0, milliseconds - origin))
    }

    private static func streamTime(_ milliseconds: Int64) throws(PipelineError) -> UInt32 {
        guard milliseconds >= 0, milliseconds <= Int64(UInt32.max) else {
            throw .timestampOutOfRange(milliseconds)
        }
        return UInt32(milliseconds)
    }
}
