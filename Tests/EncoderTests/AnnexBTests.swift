import Encoder
import Foundation
import Media
import TestSupport
import Testing

@Suite struct AnnexBTests {
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E]
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    static let sets = H264ParameterSets(sps: sps, pps: pps)

    static func picture(_ units: [[UInt8]], keyframe: Bool, number: Int64 = 0) -> EncodedPicture {
        EncodedPicture(
            nalUnits: units.map { try! NALUnit(bytes: $0) }, isKeyframe: keyframe, pts: number * 33, dts: number * 33,
            parameterSets: sets)
    }

    @Test func keyframeWithoutParameterSetsGetsThemAfterTheDelimiter() {
        let picture = Self.picture([[0x09, 0xF0], [0x06, 0x05, 0x80], [0x65, 0x88]], keyframe: true)
        #expect(picture.annexB == [
            0x00, 0x00, 0x00, 0x01, 0x09, 0xF0,  // access unit delimiter stays first
            0x00, 0x00, 0x00, 0x01, 0x67, 0x42, 0xC0, 0x1E,  // SPS from parameterSets
            0x00, 0x00, 0x00, 0x01, 0x68, 0xCE, 0x3C, 0x80,  // PPS from parameterSets
            0x00, 0x00, 0x00, 0x01, 0x06, 0x05, 0x80,  // SEI
            0x00, 0x00, 0x00, 0x01, 0x65, 0x88,  // IDR slice
        ])
    }

    @Test func keyframeCarryingParameterSetsIsWrittenAsIs() {
        let picture = Self.picture([Self.sps, Self.pps, [0x65, 0x88]], keyframe: true)
        #expect(picture.annexB == [
            0x00, 0x00, 0x00, 0x01, 0x67, 0x42, 0xC0, 0x1E,  // SPS
            0x00, 0x00, 0x00, 0x01, 0x68, 0xCE, 0x3C, 0x80,  // PPS
            0x00, 0x00, 0x00, 0x01, 0x65, 0x88,  // IDR slice
        ])
    }

    @Test func nonKeyframeGetsNoParameterSets() {
        let picture = Self.picture([[0x41, 0x9A, 0x02]], keyframe: false, number: 1)
        #expect(picture.annexB == [0x00, 0x00, 0x00, 0x01, 0x41, 0x9A, 0x02])
    }

    /// A stream mixing 4-byte and 3-byte start codes, leading and trailing zero bytes.
    static let stream: [UInt8] = [
        0x00,  // leading_zero_8bits
        0x00, 0x00, 0x00, 0x01, 0x67, 0x42, 0xC0, 0x1E,  // zero_byte + start code, SPS
        0x00, 0x00, 0x01, 0x68, 0xCE, 0x3C, 0x80,  // 3-byte start code, PPS
        0x00, 0x00, 0x00, 0x01, 0x65, 0x88, 0x00, 0x00, 0x03, 0x01,  // IDR containing an emulation-prevented 00 00 03 01
        0x00, 0x00,  // trailing_zero_8bits
    ]

    @Test func parserSplitsGoldenStream() throws {
        let units = try AnnexBNALUnitParser.parse(Self.stream)
        #expect(units.map(\.type) == [.sps, .pps, .idr])
        #expect(units.map(\.bytes) == [Self.sps, Self.pps, [0x65, 0x88, 0x00, 0x00, 0x03, 0x01]])
    }

    @Test func parserDripFeedOneByteAtATime() throws {
        var parser = AnnexBNALUnitParser()
        var units: [[UInt8]] = []
        for byte in Self.stream {
            try parser.append([byte])
            while let unit = parser.next() { units.append(unit) }
        }
        // The IDR is only known to be complete at the end of the stream.
        #expect(units == [Self.sps, Self.pps])
        try parser.finish()
        while let unit = parser.next() { units.append(unit) }
        #expect(units == (try AnnexBNALUnitParser.parse(Self.stream)).map(\.bytes))
    }

    @Test func writerOutputRoundTripsThroughTheParser() throws {
        let pictures = [
            Self.picture([[0x06, 0x05, 0x80], [0x65, 0x88, 0x80]], keyframe: true),
            Self.picture([[0x41, 0x9A, 0x02]], keyframe: false, number: 1),
        ]
        let bytes = pictures.flatMap(\.annexB)
        let units = try AnnexBNALUnitParser.parse(bytes)
        #expect(units.map(\.bytes) == [Self.sps, Self.pps, [0x06, 0x05, 0x80], [0x65, 0x88, 0x80], [0x41, 0x9A, 0x02]])
    }

    @Test func parserRejectsDataBeforeTheFirstStartCode() {
        #expect(throws: NALUnitError.missingStartCode) { try AnnexBNALUnitParser.parse([0x12, 0x00, 0x00, 0x01, 0x65]) }
    }

    @Test func openFailureNamesThePath() {
        #expect(throws: AnnexBWriterError.open(path: "/nonexistent-dir/x.h264", errno: ENOENT)) {
            _ = try AnnexBWriter(path: "/nonexistent-dir/x.h264")
        }
    }

    @Test func realEncoderOutputRoundTripsThroughAnnexB() throws {
        let pictures = try Harness.encode(Harness.settings(), count: 5)
        let bytes = pictures.flatMap(\.annexB)
        #expect(try AnnexBNALUnitParser.parse(bytes) == pictures.flatMap(\.nalUnits))
    }

    /// The codec-neutral packet (what the `.h264` output writes): parameter sets from the
    /// decoder configuration in front of a keyframe, the units behind start codes.
    @Test func mediaPacketsAreWrittenWithTheirConfigurationBeforeKeyframes() throws {
        let configuration = DecoderConfiguration(parameterSets: [Self.sps, Self.pps])
        func packet(_ units: [[UInt8]], keyframe: Bool) -> MediaPacket {
            MediaPacket(
                codec: .h264, decoderConfiguration: configuration, isKeyframe: keyframe, dts: 0, pts: 0, captureTime: 0,
                units: units)
        }
        let path = Harness.temporaryFile("packets.h264")
        let writer = try AnnexBWriter(path: path, frameLimit: 2)
        #expect(try writer.write(packet([[0x41, 0x01]], keyframe: false)) == false)
        #expect(try writer.write(packet([[0x65, 0x02]], keyframe: true)) == true)
        #expect(try writer.write(packet([[0x41, 0x03]], keyframe: false)) == true)
        #expect(try writer.write(packet([[0x41, 0x04]], keyframe: false)) == false)
        writer.close()
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == [0, 0, 0, 1] + Self.sps + [0, 0, 0, 1] + Self.pps + [0, 0, 0, 1, 0x65, 0x02] + [0, 0, 0, 1, 0x41, 0x03])
    }

    /// Real pictures as packets (parameter sets out of band, as the pipeline makes them) decode.
    @Test func realEncoderOutputAsMediaPacketsDecodes() throws {
        let pictures = try Harness.encode(Harness.settings(), count: 30)
        let path = Harness.temporaryFile("packets-real.h264")
        let writer = try AnnexBWriter(path: path)
        for picture in pictures {
            let units = picture.nalUnits.filter { ![.sps, .pps, .aud].contains($0.type) }.map(\.bytes)
            let configuration = DecoderConfiguration(parameterSets: [picture.parameterSets.sps, picture.parameterSets.pps])
            try writer.write(
                MediaPacket(
                    codec: .h264, decoderConfiguration: configuration, isKeyframe: picture.isKeyframe, dts: picture.dts,
                    pts: picture.pts, captureTime: picture.pts, units: units))
        }
        writer.close()
        #expect(writer.framesWritten == 30)
        try FFmpegTools.decodesCleanly(path)
    }
}
