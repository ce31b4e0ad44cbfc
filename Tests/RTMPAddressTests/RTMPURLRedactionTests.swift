import Testing
import RTMPAddress

/// URLs as written, valid or not, lose every place that can hold a secret (design invariant 6).
@Suite("RTMPURL.redact")
struct RTMPURLRedactionTests {
    @Test(arguments: [
        ("rtmp://example.com/live/KEY", "rtmp://example.com/live/****"),
        ("rtmp://example.com:1935/live/KEY/", "rtmp://example.com:1935/live/****/"),
        ("rtmp://example.com/app/inst/KEY", "rtmp://example.com/app/inst/****"),
        ("rtmp://example.com/live?key=KEY&quality=hd", "rtmp://example.com/****?key=****&quality=hd"),
        ("rtmp://example.com/live/x?token=KEY", "rtmp://example.com/live/****?token=****"),
        ("rtmp://example.com/live/x?AUTH=KEY", "rtmp://example.com/live/****?AUTH=****"),
        ("rtmp://example.com/live/x?KEY&vhost=v1", "rtmp://example.com/live/****?****&vhost=v1"),
        ("rtmp://example.com/live/x?key=&vhost=v1", "rtmp://example.com/live/****?key=&vhost=v1"),
        ("rtmp://user:KEY@example.com/live/x", "rtmp://****@example.com/live/****"),
        ("rtmp://example.com/live/x playpath=KEY", "rtmp://example.com/live/**** ****"),
        ("rtmp://example.com/live/x#KEY", "rtmp://example.com/live/****#****"),
        ("KEY", "****"),
        ("rtmp://example.com", "rtmp://example.com"),
    ])
    func masksEverySecretPlace(_ url: String, _ shown: String) {
        #expect(RTMPURL.redact(url) == shown)
    }

    @Test("a parsed URL is masked by the same rules as the text it came from")
    func parsedAndWrittenAgree() throws {
        let text = "rtmp://h:1935/app/k3y?token=t0k&vhost=v1&b4re"
        let url = try RTMPURL(parsing: text)
        #expect(url.redacted == RTMPURL.redact(text))
        #expect(url.redacted == "rtmp://h:1935/app/****?token=****&vhost=v1&****")
        #expect(Set(url.secrets) == ["k3y", "t0k", "b4re"])
    }
}
