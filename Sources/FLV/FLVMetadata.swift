/// The stream description sent first in every FLV file and RTMP publish: a script-data tag whose
/// body is the AMF0 string "onMetaData" followed by an ECMA array (FLV spec v10.1, annex E.5,
/// "onMetaData").
///
/// "@setDataFrame" is deliberately absent: librtmp's `RTMP_Write` prepends it when it sees an
/// onMetaData tag, and a file must not carry it.
public struct FLVMetadata: Equatable, Sendable {
    /// The script-data name that marks a metadata tag.
    public static let name = "onMetaData"

    /// Seconds; 0 for a live stream. The file writer patches it on close.
    public var duration: Double
    public var width: Int
    public var height: Int
    /// Video bit rate in kilobits per second.
    public var videoDataRate: Double
    /// Frames per second.
    public var frameRate: Double
    /// `videocodecid`: a CodecID (7 for H.264), or for an Enhanced RTMP codec its FourCC as a
    /// number (E-RTMP v1, "Enhancing onMetaData": 'hvc1' == 0x68766331 == 1752589105.0).
    public var videoCodec: FLVMetadataVideoCodec
    /// Name of the program that wrote the stream.
    public var encoder: String
    /// Total file size in bytes; `nil` for a stream. The file writer patches it on close if present.
    public var fileSize: Double?
    /// Further fields, written after the standard ones in this order.
    public var extraFields: [AMF0Property]
    /// The audio track's fields; nil for a video-only stream (FLVMetadata+Audio.swift).
    public var audio: Audio?

    public init(
        width: Int, height: Int, frameRate: Double, videoDataRate: Double, encoder: String,
        duration: Double = 0, videoCodec: FLVMetadataVideoCodec = .codecID(.avc), fileSize: Double? = nil,
        extraFields: [AMF0Property] = [], audio: Audio? = nil
    ) {
        self.duration = duration
        self.width = width
        self.height = height
        self.videoDataRate = videoDataRate
        self.frameRate = frameRate
        self.videoCodec = videoCodec
        self.encoder = encoder
        self.fileSize = fileSize
        self.extraFields = extraFields
        self.audio = audio
    }

    /// The ECMA array's properties in the order they are written (ffmpeg's order, which players
    /// are used to).
    public var properties: [AMF0Property] {
        var properties: [AMF0Property] = [
            AMF0Property("duration", .number(duration)),
            AMF0Property("width", .number(Double(width))),
            AMF0Property("height", .number(Double(height))),
            AMF0Property("videodatarate", .number(videoDataRate)),
            AMF0Property("framerate", .number(frameRate)),
            AMF0Property("videocodecid", .number(videoCodec.metadataValue)),
        ]
        properties += audio?.properties ?? []
        properties.append(AMF0Property("encoder", .string(encoder)))
        if let fileSize {
            properties.append(AMF0Property("filesize", .number(fileSize)))
        }
        return properties + extraFields
    }

    /// The script-data tag body: AMF0 "onMetaData" then the ECMA array.
    /// Throws `stringTooLong` if the encoder string or an extra field exceeds AMF0's limits.
    public func scriptDataBody() throws(FLVError) -> [UInt8] {
        var bytes: [UInt8] = []
        try AMF0Value.string(Self.name).encode(into: &bytes)
        try AMF0Value.ecmaArray(properties).encode(into: &bytes)
        return bytes
    }
}
