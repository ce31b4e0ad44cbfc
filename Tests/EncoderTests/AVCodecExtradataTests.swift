@testable import Encoder
import FLV
import Media
import Testing

/// The stream headers an avcodec encoder leaves in extradata: Annex-B (libx264, nvenc, v4l2m2m)
/// or an avcC/hvcC record (configurationVersion 1 first), read by the one parser of each.
@Suite struct AVCodecExtradataTests {
    /// Real parameter sets: libx264's and libx265's through libavcodec.
    static func headers(_ name: String, _ codec: VideoCodec) throws -> [[UInt8]] {
        var settings = Harness.settings()
        settings.codec = codec
        settings.implementation = .avcodec(name)
        return try AVCodecEncoder(settings: settings, logger: Harness.quietLogger).streamHeaders()
    }

    @Test func annexBExtradataGivesTheSetsAndNoLengthSize() throws {
        let sets = try Self.headers("libx264", .h264)
        let annexB = AnnexBWriter.startCoded(sets)
        let (parsed, lengthSize) = try AVCodecEncoder.headers(in: annexB, codec: .h264, encoder: "test")
        #expect(parsed == sets && lengthSize == nil)
    }

    @Test func anAVCCRecordGivesTheSetsAndItsLengthSize() throws {
        let sets = try Self.headers("libx264", .h264)
        let record = try AVCDecoderConfigurationRecord(sps: sets[0], pps: sets[1]).encoded()
        let (parsed, lengthSize) = try AVCodecEncoder.headers(in: record, codec: .h264, encoder: "test")
        #expect(parsed == sets && lengthSize == 4)
    }

    @Test func anHVCCRecordGivesVPSSPSAndPPS() throws {
        let sets = try Self.headers("libx265", .h265)
        #expect(sets.map { HEVCNALUnitType(unit: $0) } == [.vps, .sps, .pps])
        let record = try HEVCDecoderConfigurationRecord(parameterSets: sets).encoded()
        let (parsed, lengthSize) = try AVCodecEncoder.headers(in: record, codec: .h265, encoder: "test")
        #expect(parsed == sets && lengthSize == 4)
    }

    @Test func extradataWithoutEverySetOrThatDoesNotParseIsMalformed() throws {
        let sets = try Self.headers("libx264", .h264)
        #expect(throws: EncoderError.malformedOutput("avcodec:test's extradata holds 1 NAL units but not every parameter set")) {
            _ = try AVCodecEncoder.headers(in: AnnexBWriter.startCoded([sets[0]]), codec: .h264, encoder: "test")
        }
        let error = #expect(throws: EncoderError.self) {
            _ = try AVCodecEncoder.headers(in: [0x01, 0x64, 0x00], codec: .h264, encoder: "test")
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("extradata does not parse"))
        // No extradata: the sets come in band with the first keyframe.
        #expect(try AVCodecEncoder.headers(in: [], codec: .h264, encoder: "test").0.isEmpty)
    }
}
