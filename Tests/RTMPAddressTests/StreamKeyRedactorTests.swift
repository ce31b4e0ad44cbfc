import Testing
import RTMPAddress

@Suite("StreamKeyRedactor")
struct StreamKeyRedactorTests {
    @Test("masks every occurrence of every secret")
    func masksAll() {
        let redactor = StreamKeyRedactor(secrets: ["k3y", "t0ken"])
        #expect(redactor.redact("Playpath : k3y, tcUrl k3y?token=t0ken") == "Playpath : ****, tcUrl ****?token=****")
    }

    @Test("a secret containing another is masked whole, not left with a tail")
    func longestFirst() {
        let redactor = StreamKeyRedactor(secrets: ["abc", "abcdef"])
        #expect(redactor.redact("x abcdef y abc") == "x **** y ****")
    }

    @Test("empty secrets are ignored; text without secrets is unchanged")
    func emptyAndUntouched() {
        let redactor = StreamKeyRedactor(secrets: ["", "zz9"])
        #expect(redactor.redact("HandShake: Type Answer   : 03") == "HandShake: Type Answer   : 03")
        #expect(redactor.redact("") == "")
    }

    @Test("the URL's redactor masks what librtmp would print")
    func urlRedactor() throws {
        let url = try RTMPURL(parsing: "rtmp://h:1935/auth/live%2Dcam?key=s3cr3t")
        let line = "Playpath : live-cam?key=s3cr3t tcUrl: rtmp://h:1935/auth/live%2Dcam"
        let redacted = url.redactor.redact(line)
        #expect(redacted == "Playpath : ****?key=**** tcUrl: rtmp://h:1935/auth/****")
    }
}
