import Foundation
import TestSupport
import Testing

/// What ffprobe and ffmpeg make of a raw H.264 (Annex-B) file the encoder wrote.
extension FFmpegTools {
    struct Probe {
        var frameCount: Int
        var width: Int
        var height: Int
        var profile: String
        var level: Int
        /// Per decoded frame, in order.
        var keyFrames: [Bool]
        var pictTypes: [String]

        var keyframeIndices: [Int] { keyFrames.indices.filter { keyFrames[$0] } }
    }

    /// ffprobe's view of a raw H.264 (Annex-B) file.
    static func probe(_ file: String) throws -> Probe {
        let data = try run("ffprobe", [
            "-v", "error", "-f", "h264", "-count_frames",
            "-show_entries", "stream=nb_read_frames,width,height,profile,level",
            "-show_entries", "frame=key_frame,pict_type",
            "-of", "json", file,
        ])
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        let stream = try #require(streams.first)
        let frames = try #require(json["frames"] as? [[String: Any]])
        return Probe(
            frameCount: Int(try #require(stream["nb_read_frames"] as? String)) ?? -1,
            width: try #require(stream["width"] as? Int),
            height: try #require(stream["height"] as? Int),
            profile: try #require(stream["profile"] as? String),
            level: try #require(stream["level"] as? Int),
            keyFrames: frames.map { ($0["key_frame"] as? Int) == 1 },
            pictTypes: frames.map { ($0["pict_type"] as? String) ?? "?" })
    }

    /// The size in bytes of every access unit ffprobe's H.264 parser finds in a raw Annex-B file,
    /// in decode order (start codes, SPS/PPS and SEI included: what goes on the wire).
    static func packetSizes(_ file: String) throws -> [Int] {
        let data = try run("ffprobe", [
            "-v", "error", "-f", "h264", "-show_entries", "packet=size", "-of", "csv=p=0", file,
        ])
        return try String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map {
            try #require(Int($0.trimmingCharacters(in: .whitespaces)), "ffprobe packet size \($0)")
        }
    }

    /// Decodes with `-xerror` (stop at the first decoding error); throws on any error.
    static func decodesCleanly(_ file: String) throws {
        _ = try run("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-f", "h264", "-i", file, "-f", "null", "-"])
    }

    /// The decoded luma planes, one per frame, of a width×height stream.
    static func decodedLuma(_ file: String, width: Int, height: Int) throws -> [ArraySlice<UInt8>] {
        try decodedPlanes(file, width: width, height: height).map(\.y)
    }

    /// The decoded Y, U and V planes, one triple per frame, of a width×height stream.
    static func decodedPlanes(_ file: String, width: Int, height: Int) throws
        -> [(y: ArraySlice<UInt8>, u: ArraySlice<UInt8>, v: ArraySlice<UInt8>)]
    {
        let data = try run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "h264", "-i", file, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
        ])
        let bytes = [UInt8](data)
        let lumaSize = width * height
        let chromaSize = ((width + 1) / 2) * ((height + 1) / 2)
        let frameSize = lumaSize + 2 * chromaSize
        #expect(bytes.count % frameSize == 0, "decoded output is not whole \(width)x\(height) frames")
        return stride(from: 0, to: bytes.count - frameSize + 1, by: frameSize).map { start in
            (bytes[start..<start + lumaSize],
             bytes[start + lumaSize..<start + lumaSize + chromaSize],
             bytes[start + lumaSize + chromaSize..<start + frameSize])
        }
    }
}
