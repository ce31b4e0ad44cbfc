import FLV
import Testing
@testable import CamcastDaemon

@Suite("Every connection starts clean")
struct KeyframeGateTests {
    static let metadata = try! FLVTag(type: .scriptData, timestamp: 0, body: [0x02, 0x00, 0x0A] + Array("onMetaData".utf8))

    static func frame(_ kind: StreamPacket.Kind, at ms: UInt32) -> StreamPacket {
        let type: FLVTagType = .video
        return StreamPacket(kind: kind, tag: try! FLVTag(type: type, timestamp: ms, body: [kind == .keyframe ? 0x17 : 0x27]),
                            captureTime: Int64(ms))
    }

    @Test("after a restart: metadata, sequence header, keyframe — all at the keyframe's time, nothing before")
    func restartedConnection() {
        var gate = KeyframeGate(metadata: Self.metadata)
        let header = StreamPacket(kind: .sequenceHeader, tag: try! FLVTag(type: .video, timestamp: 0, body: [0x17, 0x00]), captureTime: 0)
        #expect(gate.admit(header).isEmpty)
        #expect(gate.admit(Self.frame(.keyframe, at: 0)).count == 3)
        #expect(gate.admit(Self.frame(.interFrame, at: 33)).count == 1)

        gate.restart()  // the connection was lost; a new one begins
        #expect(!gate.isStreaming)
        #expect(gate.admit(Self.frame(.interFrame, at: 95_000)).isEmpty, "no frame before the keyframe")
        let start = gate.admit(Self.frame(.keyframe, at: 95_033))
        #expect(start.map(\.type) == [.scriptData, .video, .video])
        #expect(start.map(\.timestamp) == [95_033, 95_033, 95_033], "the capture clock keeps counting")
        #expect(start[1].body == [0x17, 0x00], "the sequence header kept from before the loss")
        #expect(start[2].body == [0x17])
    }
}
