internal import CRTMP

extension RTMPPublisher {
    /// The connect command body for the session `RTMP_SetupURL` has just set up, with E-RTMP v2's
    /// `fourCcList` and `capsEx` (see `RTMPConnectCommand`); nil where librtmp would write more
    /// than Camcast reproduces (objectEncoding, an auth string, `conn=` values: librtmp URL options,
    /// which an `RTMPURL` cannot carry, having no whitespace) — then librtmp sends its own.
    func connectCommandBody() -> [UInt8]? {
        let session = rtmp.pointee
        let link = session.Link
        guard session.m_fEncoding == 0, session.m_bSendEncoding == 0, link.auth.av_len == 0, link.extras.o_num == 0,
              let app = Self.text(link.app)
        else { return nil }
        func optional(_ value: AVal) -> String?? { value.av_len == 0 ? .some(nil) : Self.text(value).map { .some($0) } }
        guard let flashVer = optional(link.flashVer), let swfUrl = optional(link.swfUrl), let tcUrl = optional(link.tcUrl) else {
            return nil
        }
        let command = RTMPConnectCommand(
            transactionID: Double(session.m_numInvokes + 1), app: app,
            publishing: link.protocol & RTMP_FEATURE_WRITE != 0, flashVer: flashVer, swfUrl: swfUrl, tcUrl: tcUrl,
            fourCcList: options.videoFourCC.map { [$0] } ?? [])
        return try? command.body()
    }

    /// An AVal's bytes as a string, only if the string gives back the same bytes (they go on the
    /// wire again).
    private static func text(_ value: AVal) -> String? {
        guard value.av_len > 0, let start = value.av_val else { return value.av_len == 0 ? "" : nil }
        let bytes = UnsafeRawBufferPointer(start: start, count: Int(value.av_len))
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// `bytes` to C, or a NULL pointer (and count 0) for nil.
    static func withOptionalBytes<T>(_ bytes: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let bytes else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return bytes.withUnsafeBufferPointer(body)
    }
}
