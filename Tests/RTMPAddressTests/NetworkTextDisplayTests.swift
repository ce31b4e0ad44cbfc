import Testing
import RTMPAddress

/// What a server sends (status codes, descriptions, names) is shown masked, then escaped, then
/// capped (issue 19): it can neither forge a log line nor reveal part of the key.
@Suite("StreamKeyRedactor.redactForDisplay")
struct NetworkTextDisplayTests {
    @Test("control characters are escaped: no forged line, no terminal sequence, no bell", arguments: [
        ("forged\ncamcast: error: x", "forged\\ncamcast: error: x"),
        ("\u{1B}[31mred\u{1B}[0m", "\\x1b[31mred\\x1b[0m"),
        ("bell\u{07} cr\r tab\t del\u{7F} c1\u{85}", "bell\\x07 cr\\r tab\\t del\\x7f c1\\x85"),
        ("a\\nb", "a\\\\nb"),
        ("plain NetStream.Publish.BadName é", "plain NetStream.Publish.BadName é"),
    ])
    func escapes(_ text: String, _ shown: String) {
        #expect(StreamKeyRedactor(secrets: []).redactForDisplay(text) == shown)
    }

    @Test("a key across the length cap is masked whole, never shown in part")
    func capAfterMasking() {
        let key = "SECRETKEY-0123456789"
        let redactor = StreamKeyRedactor(secrets: [key])
        // The key starts 7 characters before the cap: cut first, then masked, "SECRETK" would show.
        let text = String(repeating: "x", count: 249) + key + " tail"
        let shown = redactor.redactForDisplay(text)
        #expect(!shown.contains("SECRETK") && !shown.contains("SECRET"))
        #expect(shown.count == StreamKeyRedactor.displayLimit)
        #expect(shown.hasPrefix(String(repeating: "x", count: 249) + "****"))
        #expect(shown.hasSuffix("…"))
    }

    @Test("a key with a control character inside is still masked where it appears whole")
    func escapedAfterMasking() {
        let redactor = StreamKeyRedactor(secrets: ["k3y-77"])
        #expect(redactor.redactForDisplay("k3y-77\nk3y-77") == "****\\n****")
    }
}

/// Every query value is masked unless its parameter is known to be harmless: secrets travel under
/// names no list of secret names catches (`pw`, `md5`, `hash`, `st`, `a`).
@Suite("RTMPURL query masking")
struct RTMPURLQueryMaskingTests {
    @Test(arguments: [
        ("rtmp://h/live/x?pw=hunter2", "rtmp://h/live/****?pw=****"),
        ("rtmp://h/live/x?md5=0a1b2c&hash=ffee&st=77&e=1700000000", "rtmp://h/live/****?md5=****&hash=****&st=****&e=****"),
        ("rtmp://h/live/x?a=S3CR3T", "rtmp://h/live/****?a=****"),
        ("rtmp://h/live/x?whatever=zzz&vhost=v1&quality=hd", "rtmp://h/live/****?whatever=****&vhost=v1&quality=hd"),
        ("rtmp://h/live/x?VHOST=v1", "rtmp://h/live/****?VHOST=v1"),
    ])
    func masksUnknownParameters(_ url: String, _ shown: String) {
        #expect(RTMPURL.redact(url) == shown)
    }

    @Test("masked values are hunted in free text too, except one or two characters long ones")
    func freeTextSecrets() throws {
        let url = try RTMPURL(parsing: "rtmp://h/live/k3y?pw=hunter2&st=77&x=1&token=9")
        #expect(Set(url.secrets) == ["k3y", "hunter2", "9"])
        #expect(url.redactor.redact("sent hunter2, 1 and 77 to k3y") == "sent ****, 1 and 77 to ****")
    }
}
