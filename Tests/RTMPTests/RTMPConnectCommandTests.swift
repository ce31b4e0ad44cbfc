import Testing
@testable import RTMP

@Suite("The connect command Camcast sends in librtmp's place (RTMPConnectCommand, Enhanced RTMP v2)")
struct RTMPConnectCommandTests {
    /// librtmp 2.4's own connect for rtmp://127.0.0.1:19777/live/KEY, as it crossed loopback
    /// (tcpdump of camcast before this change, de-chunked): what a server saw until now.
    static let librtmpConnect: [UInt8] =
        [0x02, 0x00, 0x07] + Array("connect".utf8)                     // command name
        + [0x00, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]                         // transaction id 1.0
        + [0x03]                                                       // command object
        + [0x00, 0x03] + Array("app".utf8) + [0x02, 0x00, 0x04] + Array("live".utf8)
        + [0x00, 0x04] + Array("type".utf8) + [0x02, 0x00, 0x0A] + Array("nonprivate".utf8)
        + [0x00, 0x05] + Array("tcUrl".utf8) + [0x02, 0x00, 0x1B] + Array("rtmp://127.0.0.1:19777/live".utf8)
    static let objectEnd: [UInt8] = [0x00, 0x00, 0x09]

    static func command(fourCcList: [String], capsEx: RTMPConnectCommand.CapsEx) -> RTMPConnectCommand {
        RTMPConnectCommand(transactionID: 1, app: "live", tcUrl: "rtmp://127.0.0.1:19777/live", fourCcList: fourCcList, capsEx: capsEx)
    }

    @Test func withoutTheEnhancementsItIsLibrtmpsConnectByteForByte() throws {
        #expect(try Self.command(fourCcList: [], capsEx: []).body() == Self.librtmpConnect + Self.objectEnd)
    }

    @Test func announcesTheCodecAndTheReconnectCapabilityAfterLibrtmpsProperties() throws {
        let body = try Self.command(fourCcList: ["avc1"], capsEx: .reconnect).body()
        let expected = Self.librtmpConnect
            + [0x00, 0x0A] + Array("fourCcList".utf8)                   // key
            + [0x0A, 0x00, 0x00, 0x00, 0x01]                           // strict array (AMF0 §2.12), 1 entry
            + [0x02, 0x00, 0x04] + Array("avc1".utf8)                  // "avc1"
            + [0x00, 0x06] + Array("capsEx".utf8)                       // key
            + [0x00, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]                     // number 1.0: CapsExMask.Reconnect
            + Self.objectEnd
        #expect(body == expected)
    }

    @Test func hevcIsAnnouncedAsHvc1() throws {
        let body = try Self.command(fourCcList: ["hvc1"], capsEx: .reconnect).body()
        #expect(body.firstRange(of: [0x0A, 0, 0, 0, 1, 0x02, 0, 4] + Array("hvc1".utf8)) != nil)
    }

    /// What Camcast reads back with its own decoder (the check librtmp's `_result` handling does
    /// not make): the same properties, in order.
    @Test func decodesToTheSameProperties() throws {
        let summary = try RTMPCommandSummary(body: try Self.command(fourCcList: ["hvc1"], capsEx: .reconnect).body())
        #expect(summary.command == "connect")
        #expect(summary.properties == ["app": "live", "type": "nonprivate", "tcUrl": "rtmp://127.0.0.1:19777/live"])
    }
}
