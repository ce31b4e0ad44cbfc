import Media

/// Frames numbered in encoding order, a keyframe every `gop`, 33 ms apart; the frame number
/// travels in the packet's data so the test can tell which frames came out.
public struct FrameStream: Sendable {
    public let gop: Int

    public static let configuration = DecoderConfiguration(parameterSets: [[0x67, 0x42, 0xC0, 0x1E, 0xD9], [0x68, 0xCE, 0x3C, 0x80]])

    public init(gop: Int) { self.gop = gop }

    public func packet(_ number: Int, configuration: DecoderConfiguration = FrameStream.configuration) -> MediaPacket {
        let value = UInt32(bitPattern: Int32(number))
        let keyframe = number % gop == 0
        return MediaPacket(
            codec: .h264, decoderConfiguration: configuration, isKeyframe: keyframe, dts: Int64(number) * 33,
            pts: Int64(number) * 33, captureTime: Int64(number) * 33,
            units: [[keyframe ? 0x65 : 0x41] + withUnsafeBytes(of: value.bigEndian, Array.init)])
    }

    public static func number(_ packet: MediaPacket) -> Int {
        Int(Int32(bitPattern: packet.units[0].dropFirst().prefix(4).reduce(0) { $0 << 8 | UInt32($1) }))
    }
}

/// AAC packets every 21 ms (1024 samples at 48 kHz, rounded down to whole ms as the stream clock
/// is), numbered in their data like `FrameStream`'s pictures.
public enum AudioStream {
    public static let configuration = DecoderConfiguration(parameterSets: [[0x11, 0x88]])

    public static func packet(_ number: Int, configuration: DecoderConfiguration = AudioStream.configuration) -> MediaPacket {
        let time = Int64(number) * 1024 * 1000 / 48000
        return MediaPacket(
            codec: .aac, decoderConfiguration: configuration, isKeyframe: true, dts: time, pts: time, captureTime: time,
            units: [[0x21] + withUnsafeBytes(of: UInt32(number).bigEndian, Array.init)])
    }

    /// Video (gop 10, 33 ms) and audio (21 ms) up to `milliseconds`, merged by time, video first at ties.
    public static func merged(milliseconds: Int64, gop: Int = 10) -> [MediaPacket] {
        let video = FrameStream(gop: gop)
        var packets = (0...Int(milliseconds / 33)).map { video.packet($0) }
        packets += (0...Int(milliseconds * 48 / 1024)).map { packet($0) }
        return packets.enumerated().sorted {
            ($0.element.dts, $0.element.mediaKind == .video ? 0 : 1, $0.offset) < ($1.element.dts, $1.element.mediaKind == .video ? 0 : 1, $1.offset)
        }.map(\.element)
    }
}
