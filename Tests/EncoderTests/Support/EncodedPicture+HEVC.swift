import Media
import Encoder
import Foundation
import TestSupport
import Testing

/// H.265 pictures as tests look at them: NAL types, and an Annex-B file ffprobe/ffmpeg read.
extension EncodedPicture {
    /// The H.265 NAL unit types of the picture, in order (nil for a type without a case).
    var hevcTypes: [HEVCNALUnitType?] { units.map { HEVCNALUnitType(unit: $0) } }

    /// The units behind 4-byte start codes, as the session delivered them (x265 repeats
    /// VPS/SPS/PPS in front of every keyframe itself).
    var hevcAnnexB: [UInt8] { AnnexBWriter.startCoded(units) }
}

extension Harness {
    /// Writes H.265 pictures as an Annex-B file, from the first keyframe on; returns its path.
    static func writeHEVCAnnexB(_ pictures: [EncodedPicture], name: String) throws -> String {
        let path = temporaryFile(name)
        try Data(pictures.drop { !$0.isKeyframe }.flatMap(\.hevcAnnexB)).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension FFmpegTools {
    /// ffprobe's frames of a raw H.265 (Annex-B) file: key flag and picture type, and the profile.
    static func probeHEVC(_ file: String) throws -> (keyFrames: [Bool], profile: String, width: Int, height: Int) {
        let data = try run("ffprobe", [
            "-v", "error", "-f", "hevc", "-show_entries", "stream=profile,width,height",
            "-show_entries", "frame=key_frame", "-of", "json", file,
        ])
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        let frames = try #require(json["frames"] as? [[String: Any]])
        return (
            frames.map { ($0["key_frame"] as? Int) == 1 }, try #require(stream["profile"] as? String),
            try #require(stream["width"] as? Int), try #require(stream["height"] as? Int)
        )
    }

    /// Decodes a raw H.265 file with `-xerror`; throws on any decoding error.
    static func decodesHEVCCleanly(_ file: String) throws {
        _ = try run("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-f", "hevc", "-i", file, "-f", "null", "-"])
    }
}
