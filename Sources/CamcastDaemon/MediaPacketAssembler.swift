import Encoder
import Media
import Synchronization

/// Turns the encoder's pictures into codec-neutral packets on the stream clock: the capture
/// clock's milliseconds minus the first picture's DTS (plus a start offset, 0 except in tests),
/// so the stream starts at 0 and keeps counting on the capture clock across reconnects; it never
/// goes backwards because the encoder's DTS does not.
///
/// Shared without a lock (the picture path on every picture, a stop or a reload for the stream's
/// end time): its one piece of state, the origin, is set once by the first picture (an atomic
/// compare-and-exchange) and only read after that.
final class MediaPacketAssembler: Sendable {
    /// The origin before the first picture: no capture time in milliseconds is this small.
    private static let unset = Int64.min
    private let origin = Atomic<Int64>(MediaPacketAssembler.unset)
    /// Stream time of the first picture (0 except in tests), for the audio too.
    let startMilliseconds: Int64

    init(originMilliseconds: Int64 = 0) {
        startMilliseconds = originMilliseconds
    }

    /// The first picture's capture time (ms): stream time `startMilliseconds`, for the audio too.
    var firstCaptureMilliseconds: Int64? {
        let origin = origin.load(ordering: .acquiring)
        return origin == Self.unset ? nil : origin
    }

    func packet(for picture: EncodedPicture) -> MediaPacket {
        let (first, earlier) = origin.compareExchange(expected: Self.unset, desired: picture.dts, ordering: .acquiringAndReleasing)
        let origin = first ? picture.dts : earlier
        let dts = startMilliseconds + max(0, picture.dts - origin)
        return MediaPacket(
            // Parameter sets travel as the decoder configuration; AUDs carry nothing an output needs.
            codec: picture.codec.packetCodec, decoderConfiguration: picture.decoderConfiguration,
            isKeyframe: picture.isKeyframe, dts: dts, pts: dts + picture.compositionTimeOffset, captureTime: picture.pts,
            units: picture.pictureUnits)
    }

    /// Stream time of a capture time, for the end-of-sequence tag (64 bits; outputs wrap).
    func streamTime(ofCaptureTime milliseconds: Int64) -> Int64 {
        guard let origin = firstCaptureMilliseconds else { return startMilliseconds }
        return startMilliseconds + max(0, milliseconds - origin)
    }
}
