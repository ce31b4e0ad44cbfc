/// One response, made before any byte is written (so no lock is held while it is sent).
public struct HTTPReply: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var headers: [(String, String)] = []

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    public init(status: Int, text: String) {
        self.init(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    public static func == (lhs: HTTPReply, rhs: HTTPReply) -> Bool {
        lhs.status == rhs.status && lhs.contentType == rhs.contentType && lhs.body == rhs.body
            && lhs.headers.map { "\($0.0)=\($0.1)" } == rhs.headers.map { "\($0.0)=\($0.1)" }
    }
}
