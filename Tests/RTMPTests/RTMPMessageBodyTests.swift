import Testing
@testable import RTMP

@Suite("RTMP message bodies")
struct RTMPMessageBodyTests {
    /// AMF0 (AMF0 spec §2.4 string, §2.10 ECMA array) onMetaData { width: 320 }.
    static let onMetaData: [UInt8] = [
        0x02, 0x00, 0x0A,                                         // string marker, length 10
        0x6F, 0x6E, 0x4D, 0x65, 0x74, 0x61, 0x44, 0x61, 0x74, 0x61, // "onMetaData"
        0x08, 0x00, 0x00, 0x00, 0x01,                             // ECMA array marker, 1 entry
        0x00, 0x05, 0x77, 0x69, 0x64, 0x74, 0x68,                 // key length 5, "width"
        0x00, 0x40, 0x74, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,     // number marker, 320.0
        0x00, 0x00, 0x09,                                         // object end
    ]

    @Test("the @setDataFrame prefix is the AMF0 string, golden bytes")
    func setDataFrameGolden() {
        #expect(RTMPPublisher.setDataFrameAMF0 == [
            0x02, 0x00, 0x0D,                                     // string marker, length 13
            0x40, 0x73, 0x65, 0x74, 0x44, 0x61, 0x74, 0x61,       // "@setData"
            0x46, 0x72, 0x61, 0x6D, 0x65,                         // "Frame"
        ])
    }

    @Test("onMetaData gets @setDataFrame in front exactly once")
    func metadataPrefixedOnce() {
        let plain = RTMPMediaMessage(type: .dataAMF0, timestamp: 0, payload: Self.onMetaData)
        #expect(RTMPPublisher.bodyPrefix(for: plain) == RTMPPublisher.setDataFrameAMF0)

        let alreadyPrefixed = RTMPMediaMessage(type: .dataAMF0, timestamp: 0,
                                               payload: RTMPPublisher.setDataFrameAMF0 + Self.onMetaData)
        #expect(RTMPPublisher.bodyPrefix(for: alreadyPrefixed).isEmpty)
    }

    @Test("audio and video bodies are sent unchanged", arguments: [RTMPMessageType.audio, .video])
    func mediaUnprefixed(_ type: RTMPMessageType) {
        let message = RTMPMediaMessage(type: type, timestamp: 40, payload: [0x17, 0x01, 0, 0, 0])
        #expect(RTMPPublisher.bodyPrefix(for: message).isEmpty)
    }

    @Test("message type ids are RTMP's (and FLV's) on-wire values")
    func typeIDs() {
        #expect(RTMPMessageType.allCases.map(\.rawValue) == [8, 9, 18])
    }
}
