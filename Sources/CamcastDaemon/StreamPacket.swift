import FLV

/// One unit of the encoded stream on its way to the outputs, already in FLV form.
///
/// Each output decides what to do with it: a connection that has just started waits for a
/// keyframe and puts the metadata and the current sequence header in front of it.
public struct StreamPacket: Sendable {
    public enum Kind: Sendable, Equatable {
        /// The AVC sequence header (new or changed SPS/PPS).
        case sequenceHeader
        case keyframe
        case interFrame
    }

    public var kind: Kind
    public var tag: FLVTag
    /// When the frame was captured, for latency figures and for the send queue's time bound.
    public var captureTime: Int64

    public init(kind: Kind, tag: FLVTag, captureTime: Int64) {
        self.kind = kind
        self.tag = tag
        self.captureTime = captureTime
    }
}
