import Encoder
import Media

/// Turns the encoder's pictures into codec-neutral packets on the stream clock: the capture
/// clock's milliseconds minus the first picture's DTS (plus a start offset, 0 except in tests),
/// so the stream starts at 0 and keeps counting on the capture clock across reconnects; it never
/// goes backwards because the encoder's DTS does not.
struct MediaPacketAssembler {
    private var origin: Int64?
    private let startMilliseconds: Int64

    init(originMilliseconds: Int64 = 0) {
        startMilliseconds = originMilliseconds
    }

    /// The first picture's capture time (ms): stream time `startMilliseconds`, for the audio too.
    var firstCaptureMilliseconds: Int64? { origin }

    mutating func packet(for picture: EncodedPicture) -> MediaPacket {
        let origin = self.origin ?? picture.dts
        self.origin = origin
        let dts = startMilliseconds + max(0, picture.dts - origin)
        return MediaPacket(
            // Parameter sets travel as the decoder configuration; AUDs carry nothing an output needs.
            codec: picture.codec.packetCodec, decoderConfiguration: picture.decoderConfiguration,
            isKeyframe: picture.isKeyframe, dts: dts, pts: dts + picture.compositionTimeOffset, captureTime: picture.pts,
            units: picture.pictureUnits)
    }

    /// Stream time of a capture time, for the end-of-sequence tag (64 bits; outputs wrap).
    func streamTime(ofCaptureTime milliseconds: Int64) -> Int64 {
        guard let origin else { return startMilliseconds }
        return startMilliseconds + max(0, milliseconds - origin)
    }
}
