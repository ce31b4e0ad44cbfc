import Testing
@testable import RTMPAddress

@Suite("Where a server's reconnect request sends the publisher (RTMPURL.reconnectTarget)")
struct RTMPReconnectTargetTests {
    static let key = "sEcReT-kEy-0042"
    static let current = try! RTMPURL(parsing: "rtmp://ingest.example.com:1935/live/\(key)")
    static let secure = try! RTMPURL(parsing: "rtmps://ingest.example.com/live/\(key)?backup=1")

    /// The spec's four examples (enhanced-rtmp-v2, "Info Object parameter … when handling
    /// reconnect"), absolute and relative, and the same address without a tcUrl.
    @Test(arguments: [
        ("rtmp://foo.mydomain.com:1935/realtimeapp", "rtmp://foo.mydomain.com:1935/realtimeapp"),
        ("rtmp://127.0.0.1/realtimeapp", "rtmp://127.0.0.1:1935/realtimeapp"),
        ("//192.0.2.0/realtimeapp", "rtmp://192.0.2.0:1935/realtimeapp"),
        ("/realtimeapp", "rtmp://ingest.example.com:1935/realtimeapp"),
        ("rtmp://127.0.0.1:19350/rec/", "rtmp://127.0.0.1:19350/rec"),
        ("rtmp://[::1]:19350/app/instance", "rtmp://[::1]:19350/app/instance"),
    ])
    func followsAbsoluteAndRelativeReferencesKeepingTheKey(tcUrl: String, expected: String) throws {
        let target = try Self.current.reconnectTarget(tcUrl: tcUrl)
        #expect(target.unredactedForLibrtmp == "\(expected)/\(Self.key)")
        #expect(target.streamKey == Self.key)
    }

    @Test func withoutATcUrlItIsTheSameAddress() throws {
        #expect(try Self.current.reconnectTarget(tcUrl: nil) == Self.current)
    }

    @Test func keepsTLSAndTheKeysQuery() throws {
        let target = try Self.secure.reconnectTarget(tcUrl: "rtmps://other.example.com/live")
        #expect(target.unredactedForLibrtmp == "rtmps://other.example.com:443/live/\(Self.key)?backup=1")
        #expect(try Self.secure.reconnectTarget(tcUrl: "//other.example.com:8443/live").usesTLS)
    }

    @Test func refusesToDropTLS() {
        #expect(throws: RTMPURL.ReconnectRefusal.tlsDowngrade) { try Self.secure.reconnectTarget(tcUrl: "rtmp://other.example.com/live") }
    }

    @Test(arguments: ["", "garbage", "http://example.com/live", "rtmp://", "rtmp://host", "rtmp:///live", "rtmp://ho st/live",
                      "rtmp://host:99999/live", "rtmp://user:pw@host/live", "rtmp://host/a/b/c/d", "rtmp://host/live#x", "/"])
    func refusesWhatIsNotAnRTMPAddress(tcUrl: String) {
        #expect(throws: RTMPURL.ReconnectRefusal.self) { try Self.current.reconnectTarget(tcUrl: tcUrl) }
    }

    @Test func aRefusalNeverNamesTheKey() throws {
        let short = try RTMPURL(parsing: "rtmp://host/live/abc")
        let error = #expect(throws: RTMPURL.ReconnectRefusal.self) { try short.reconnectTarget(tcUrl: "rtmp://host") }
        #expect(error?.description.contains("abc") == false, "\(String(describing: error))")
    }
}
