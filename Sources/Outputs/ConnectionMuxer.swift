import Media

/// A container muxer for one connection of a network output: it starts at a keyframe and hands
/// its bytes to the sink it was made with (the SRT output's MPEG-TS, from Recording's libavformat
/// muxer; this module links no libavformat). Used by the output's publisher thread only.
package protocol ConnectionMuxer: AnyObject {
    /// Muxes one packet; its bytes reach the sink by the time this returns.
    func write(_ packet: MediaPacket) throws(ConnectionMuxerError)
    /// The end of the stream: what the muxer still holds (the sound it gathers into one PES) goes out.
    func finish() throws(ConnectionMuxerError)
}

/// Why a connection's muxer could not take a packet; `sinkFailed` when the sink itself said no
/// (the connection failed: the output knows why from its own sink).
package enum ConnectionMuxerError: Error, Equatable, CustomStringConvertible {
    case sinkFailed
    case muxer(String)

    package var description: String {
        switch self {
        case .sinkFailed: "the connection refused the data"
        case .muxer(let reason): reason
        }
    }
}

/// Makes the muxer of a new connection at `keyframe`, with the AudioSpecificConfig last seen (nil
/// before any sound); `sink` takes each message and returns false once the connection failed.
package typealias ConnectionMuxerFactory =
    @Sendable (_ keyframe: MediaPacket, _ audioConfiguration: [UInt8]?, _ sink: @escaping (UnsafeRawBufferPointer) -> Bool)
    throws(ConnectionMuxerError) -> any ConnectionMuxer
