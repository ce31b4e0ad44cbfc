import FLV
import Media
import TestSupport
import Testing
@testable import CamcastDaemon
@testable import Outputs

/// The FLV muxer over Media's `KeyframeGate` (whose own tests are in CaptureTests, beside
/// Media's other types).
@Suite("Every connection starts clean")
struct ConnectionStartTests {
    static let metadata = try! FLVTag(type: .scriptData, timestamp: 0, body: [0x02, 0x00, 0x0A] + Array("onMetaData".utf8))
    static let stream = FrameStream(gop: 10)

    static func frame(_ number: Int, configuration: DecoderConfiguration = FrameStream.configuration) -> MediaPacket {
        stream.packet(number, configuration: configuration)
    }

    @Test("after a restart: metadata, sequence header, keyframe — all at the keyframe's time, nothing before")
    func restartedConnection() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        #expect(try muxer.tags(for: Self.frame(9)).isEmpty)
        #expect(try muxer.tags(for: Self.frame(10)).count == 3)
        #expect(try muxer.tags(for: Self.frame(11)).count == 1)

        muxer.restart()  // the connection was lost; a new one begins
        #expect(!muxer.isStreaming)
        #expect(try muxer.tags(for: Self.frame(2879)).isEmpty, "no frame before the keyframe")
        let start = try muxer.tags(for: Self.frame(2880))
        #expect(start.map(\.type) == [.scriptData, .video, .video])
        #expect(start.map(\.timestamp) == [95_040, 95_040, 95_040], "the capture clock keeps counting")
        // The sequence header comes from the keyframe's own decoder configuration.
        let header = try FLVVideoTagBody(parsing: start[1].body)
        #expect(header.avcPacketType == .sequenceHeader)
        let record = try AVCDecoderConfigurationRecord(parsing: header.data)
        #expect(record.sequenceParameterSets == [FrameStream.configuration.parameterSets[0]])
        #expect(try FLVVideoTagBody(parsing: start[2].body).frameType == .keyframe)
    }

    @Test("a changed configuration goes out once, in front of its frame")
    func changedConfiguration() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        _ = try muxer.tags(for: Self.frame(0))
        let other = DecoderConfiguration(parameterSets: [[0x67, 0x64, 0x00, 0x1F, 0xAC], [0x68, 0xEE, 0x3C, 0x80]])
        let changed = try muxer.tags(for: Self.frame(1, configuration: other))
        #expect(changed.count == 2)
        #expect(try FLVVideoTagBody(parsing: changed[0].body).avcPacketType == .sequenceHeader)
        #expect(try muxer.tags(for: Self.frame(2, configuration: other)).count == 1)
    }
}
