import Testing
@testable import RTMPAddress

@Suite("RTMPURL parsing and redaction")
struct RTMPURLTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var text: String
        var host: String
        var port: UInt16
        var app: String
        var key: String
        var query: String?
        var redacted: String
        var testDescription: String { redacted }
    }

    static let valid: [Valid] = [
        Valid(text: "rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop",
              host: "a.rtmp.youtube.com", port: 1935, app: "live2", key: "abcd-efgh-ijkl-mnop", query: nil,
              redacted: "rtmp://a.rtmp.youtube.com:1935/live2/****"),
        Valid(text: "rtmp://127.0.0.1:19360/live/cam1",
              host: "127.0.0.1", port: 19360, app: "live", key: "cam1", query: nil,
              redacted: "rtmp://127.0.0.1:19360/live/****"),
        Valid(text: "RTMP://Host.Example:1/app/inst/streamKEY",
              host: "Host.Example", port: 1, app: "app/inst", key: "streamKEY", query: nil,
              redacted: "rtmp://Host.Example:1/app/inst/****"),
        Valid(text: "rtmp://h:65535/a/b/c/k5w",
              host: "h", port: 65535, app: "a/b/c", key: "k5w", query: nil,
              redacted: "rtmp://h:65535/a/b/c/****"),
        Valid(text: "rtmp://h/auth/cam?key=s3cr3t&vhost=v1",
              host: "h", port: 1935, app: "auth", key: "cam", query: "key=s3cr3t&vhost=v1",
              redacted: "rtmp://h:1935/auth/****?key=****&vhost=v1"),
        Valid(text: "rtmp://h/app/kq7z?access_token=tok1&Secret=x9&auth=a1&password=p1&flag",
              host: "h", port: 1935, app: "app", key: "kq7z", query: "access_token=tok1&Secret=x9&auth=a1&password=p1&flag",
              redacted: "rtmp://h:1935/app/****?access_token=****&Secret=****&auth=****&password=****&****"),
        Valid(text: "rtmp://h/app/k?",
              host: "h", port: 1935, app: "app", key: "k", query: nil,
              redacted: "rtmp://h:1935/app/****"),
        // YouTube's backup ingest: librtmp takes `live2?backup=1` as the application (issue 43).
        Valid(text: "rtmp://b.rtmp.youtube.com/live2?backup=1/abcd-efgh-ijkl",
              host: "b.rtmp.youtube.com", port: 1935, app: "live2?backup=1", key: "abcd-efgh-ijkl", query: nil,
              redacted: "rtmp://b.rtmp.youtube.com:1935/live2?backup=1/****"),
        // RTMPS: default port 443 (issue 16).
        Valid(text: "rtmps://live-api-s.facebook.com/rtmp/FB-123-abc",
              host: "live-api-s.facebook.com", port: 443, app: "rtmp", key: "FB-123-abc", query: nil,
              redacted: "rtmps://live-api-s.facebook.com:443/rtmp/****"),
        Valid(text: "RTMPS://h:19443/rec/k1",
              host: "h", port: 19443, app: "rec", key: "k1", query: nil,
              redacted: "rtmps://h:19443/rec/****"),
        // IPv6 literals in brackets (RFC 3986 §3.2.2); the host is kept without them.
        Valid(text: "rtmp://[::1]:19350/live/v6key",
              host: "::1", port: 19350, app: "live", key: "v6key", query: nil,
              redacted: "rtmp://[::1]:19350/live/****"),
        Valid(text: "rtmp://[2001:db8::a:1]/live/v6key",
              host: "2001:db8::a:1", port: 1935, app: "live", key: "v6key", query: nil,
              redacted: "rtmp://[2001:db8::a:1]:1935/live/****"),
        Valid(text: "rtmps://[::ffff:192.0.2.1]/app/v6key",
              host: "::ffff:192.0.2.1", port: 443, app: "app", key: "v6key", query: nil,
              redacted: "rtmps://[::ffff:192.0.2.1]:443/app/****"),
        Valid(text: "rtmp://[1:2:3:4:5:6:7:8]:1/live/v6key",
              host: "1:2:3:4:5:6:7:8", port: 1, app: "live", key: "v6key", query: nil,
              redacted: "rtmp://[1:2:3:4:5:6:7:8]:1/live/****"),
    ]

    @Test("valid URLs parse into their fields", arguments: valid)
    func parsesValid(_ c: Valid) throws {
        let url = try RTMPURL(parsing: c.text)
        #expect(url.scheme == c.text.prefix(while: { $0 != ":" }).lowercased())
        #expect(url.usesTLS == (url.scheme == "rtmps"))
        #expect(url.host == c.host)
        #expect(url.port == c.port)
        #expect(url.app == c.app)
        #expect(url.streamKey == c.key)
        #expect(url.query == c.query)
        #expect(url.redacted == c.redacted)
    }

    @Test("every printed form hides the key", arguments: valid)
    func printingHidesKey(_ c: Valid) throws {
        let url = try RTMPURL(parsing: c.text)
        var dumped = ""
        dump(url, to: &dumped)
        let printed = ["\(url)", String(describing: url), String(reflecting: url), dumped, "\([url])"]
        for form in printed {
            #expect(!form.contains(c.key), "leaked the key in: \(form.replacing(c.key, with: "<KEY>"))")
            for secret in url.secrets {
                #expect(!form.contains(secret))
            }
            #expect(form.contains(c.host))
        }
    }

    @Test("librtmp gets the full URL with an explicit port")
    func unredactedForLibrtmp() throws {
        let url = try RTMPURL(parsing: "rtmp://h/auth/cam?key=s3cr3t")
        #expect(url.unredactedForLibrtmp == "rtmp://h:1935/auth/cam?key=s3cr3t")
        let reparsed = try RTMPURL(parsing: url.unredactedForLibrtmp)
        #expect(reparsed == url)
    }

    @Test("secrets: the key, secret query values, and their percent-decoded forms")
    func secrets() throws {
        let url = try RTMPURL(parsing: "rtmp://h/app/my%2Dkey?token=t%41k&vhost=public")
        #expect(Set(url.secrets) == ["my%2Dkey", "my-key", "t%41k", "tAk"])
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var text: String
        var error: RTMPURLError
        /// A secret in `text` that no error description may contain (nil: the URL has none).
        var secret: String?
        var testDescription: String { "\(error)" }
    }

    static let invalid: [Invalid] = [
        Invalid(text: "a.rtmp.youtube.com/live2/SECRETKEY1", error: .missingScheme, secret: "SECRETKEY1"),
        Invalid(text: "://h/app/SECRETKEY2", error: .missingScheme, secret: "SECRETKEY2"),
        Invalid(text: "", error: .empty, secret: nil),
        Invalid(text: "http://h/app/SECRETKEY3", error: .unsupportedScheme("http"), secret: "SECRETKEY3"),
        Invalid(text: "rtmpt://h:80/rtmp/SECRETKEY4", error: .unsupportedScheme("rtmpt"), secret: "SECRETKEY4"),
        Invalid(text: "rtmp://h/app/SECRET KEY5", error: .containsWhitespace, secret: "SECRET KEY5"),
        Invalid(text: "rtmp://h/app/SECRETKEY6 live=1", error: .containsWhitespace, secret: "SECRETKEY6"),
        Invalid(text: "rtmp://h/app/SECRETKEY7\n", error: .containsWhitespace, secret: "SECRETKEY7"),
        Invalid(text: "rtmp:///app/SECRETKEY8", error: .missingHost, secret: "SECRETKEY8"),
        Invalid(text: "rtmp://:1935/app/SECRETKEY8", error: .missingHost, secret: "SECRETKEY8"),
        Invalid(text: "rtmp://user:SECRETKEY9@h/app/k", error: .userInfo, secret: "SECRETKEY9"),
        Invalid(text: "rtmp://[::1/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://[fe80::1%eth0]/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://[example.com]/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://[::1]x/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://[1::2::3]/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://[1:2:3:4:5:6:7]/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://[12345::1]/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://::1/app/SECRETKEYA", error: .missingHost, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://h]/app/SECRETKEYA", error: .invalidIPv6Literal, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://[::1]:0/app/SECRETKEYA", error: .invalidPort(text: "0"), secret: "SECRETKEYA"),
        Invalid(text: "rtmp://ho_st/app/SECRETKEYA", error: .invalidHostName, secret: "SECRETKEYA"),
        Invalid(text: "rtmp://h:0/app/SECRETKEYB", error: .invalidPort(text: "0"), secret: "SECRETKEYB"),
        Invalid(text: "rtmp://h:65536/app/SECRETKEYC", error: .invalidPort(text: "65536"), secret: "SECRETKEYC"),
        Invalid(text: "rtmp://h:http/app/SECRETKEYD", error: .invalidPort(text: nil), secret: "SECRETKEYD"),
        Invalid(text: "rtmp://h:/app/SECRETKEYE", error: .invalidPort(text: nil), secret: "SECRETKEYE"),
        Invalid(text: "rtmp://h", error: .missingApp, secret: nil),
        Invalid(text: "rtmp://h/", error: .missingApp, secret: nil),
        Invalid(text: "rtmp://h?key=SECRETKEYF", error: .missingApp, secret: "SECRETKEYF"),
        Invalid(text: "rtmp://h/app", error: .missingStreamKey(app: "app"), secret: nil),
        Invalid(text: "rtmp://h/app/", error: .missingStreamKey(app: "app"), secret: nil),
        Invalid(text: "rtmp://h/app/?key=SECRETKEYG", error: .missingStreamKey(app: "app"), secret: "SECRETKEYG"),
        // A lone element that may be a key given without its application stays masked.
        Invalid(text: "rtmp://h/SECRETKEYK1x", error: .missingStreamKey(app: nil), secret: "SECRETKEYK1x"),
        Invalid(text: "rtmp://h/rec/SECRETKEYL/", error: .trailingSlash, secret: "SECRETKEYL"),
        Invalid(text: "rtmp://h//SECRETKEYH", error: .emptyPathElement, secret: "SECRETKEYH"),
        Invalid(text: "rtmp://h/a//SECRETKEYI", error: .emptyPathElement, secret: "SECRETKEYI"),
        Invalid(text: "rtmp://h/a/b/c/d/SECRETKEYJ", error: .tooManyPathElements(count: 4), secret: "SECRETKEYJ"),
    ]

    @Test("invalid URLs fail with the specific error, never showing the key", arguments: invalid)
    func rejectsInvalid(_ c: Invalid) {
        let error = #expect(throws: RTMPURLError.self) { try RTMPURL(parsing: c.text) }
        #expect(error == c.error)
        let description = error.map { "\($0)" } ?? ""
        let message = error?.message(quoting: c.text) ?? ""
        #expect(!description.isEmpty && !message.isEmpty)
        if let secret = c.secret {
            #expect(!description.contains(secret))
            #expect(!message.contains(secret), "leaked the key in: \(message.replacing(secret, with: "<KEY>"))")
        }
    }

    @Test("each kind of fault has its own message")
    func messagesAreSpecific() {
        let errors = Set(Self.invalid.map(\.error))
        let reasons = Set(Self.invalid.map(\.error.reason))
        #expect(reasons.count == errors.count)
    }

    @Test("a config-style message quotes the URL redacted, then says what is wrong")
    func messageQuotesRedacted() {
        #expect(RTMPURLError.invalidPort(text: "99999").message(quoting: "rtmp://h:99999/live/k3y")
                == "`rtmp://h:99999/live/****` has port `99999`; a port is 1…65535")
        #expect(RTMPURLError.empty.message(quoting: "") == "is empty (expected rtmp[s]://host[:port]/app/key)")
    }

    /// Issue 25: the application the user typed is shown and the missing key named; a trailing
    /// slash is named as such, the key masked.
    @Test("a URL without a key names its application; a trailing slash is named")
    func missingKeyAndTrailingSlashMessages() throws {
        let noKey = try #require(throws: RTMPURLError.self) { try RTMPURL(parsing: "rtmp://127.0.0.1:19460/rec") }
        #expect(noKey.message(quoting: "rtmp://127.0.0.1:19460/rec")
                == "`rtmp://127.0.0.1:19460/rec` has the application `rec` but no stream key after it; the key is missing (expected rtmp[s]://host[:port]/app/key)")
        let slash = try #require(throws: RTMPURLError.self) { try RTMPURL(parsing: "rtmp://127.0.0.1:19460/rec/SECRETKEYM/") }
        #expect(slash.message(quoting: "rtmp://127.0.0.1:19460/rec/SECRETKEYM/")
                == "`rtmp://127.0.0.1:19460/rec/****/` ends with `/` after the stream key; remove the trailing slash (expected rtmp[s]://host[:port]/app/key)")
    }
}
