import FLV

/// The `connect` command a publisher sends (RTMP spec 1.0 §7.2.1.1), as librtmp 2.4's
/// `SendConnectPacket` writes it for a publish, plus what Enhanced RTMP v2 adds to the command
/// object (veovera enhanced-rtmp-v2, "Enhancing NetConnection connect Command"): `fourCcList`,
/// the codecs the client sends, and `capsEx`, its extended capabilities (here: Reconnect, so a
/// server may send `NetConnection.Connect.ReconnectRequest`).
///
/// Why Camcast encodes it: librtmp builds the command object itself, and its `conn=` options are
/// appended after the object, never into it. Its `RTMP_Connect1` sends a packet it is given
/// instead (shim: `crtmp_connect1`), queued under its transaction id like its own, so librtmp
/// still matches the `_result` to `connect` and goes on to releaseStream/FCPublish/createStream.
/// The properties librtmp writes come first, in its order and with its values (read from its
/// `Link` after `RTMP_SetupURL`), so a server that knows nothing of E-RTMP sees two unknown
/// properties more and nothing else changed.
struct RTMPConnectCommand: Equatable {
    /// Enhanced RTMP v2's `CapsExMask`.
    struct CapsEx: OptionSet, Equatable {
        let rawValue: UInt8
        /// The client handles `NetConnection.Connect.ReconnectRequest`.
        static let reconnect = CapsEx(rawValue: 0x01)
        static let multitrack = CapsEx(rawValue: 0x02)
        static let modEx = CapsEx(rawValue: 0x04)
        static let timestampNanoOffset = CapsEx(rawValue: 0x08)
    }

    /// librtmp's `++r->m_numInvokes`: 1 on a fresh `RTMP_Init`.
    var transactionID: Double
    var app: String
    /// librtmp writes `type: "nonprivate"` when publishing (`RTMP_FEATURE_WRITE`).
    var publishing: Bool = true
    /// Each only when set, as librtmp writes them (Camcast sets neither).
    var flashVer: String?
    var swfUrl: String?
    var tcUrl: String?
    /// The FourCC of each codec sent: "avc1" (H.264), "hvc1" (H.265).
    var fourCcList: [String]
    var capsEx: CapsEx = .reconnect

    /// The command's AMF0 body: name, transaction id, command object.
    func body() throws(FLVError) -> [UInt8] {
        var properties = [AMF0Property("app", .string(app))]
        if publishing { properties.append(AMF0Property("type", .string("nonprivate"))) }
        if let flashVer { properties.append(AMF0Property("flashVer", .string(flashVer))) }
        if let swfUrl { properties.append(AMF0Property("swfUrl", .string(swfUrl))) }
        if let tcUrl { properties.append(AMF0Property("tcUrl", .string(tcUrl))) }
        if !fourCcList.isEmpty { properties.append(AMF0Property("fourCcList", .strictArray(fourCcList.map { .string($0) }))) }
        if !capsEx.isEmpty { properties.append(AMF0Property("capsEx", .number(Double(capsEx.rawValue)))) }
        var bytes: [UInt8] = []
        try AMF0Value.string("connect").encode(into: &bytes)
        try AMF0Value.number(transactionID).encode(into: &bytes)
        try AMF0Value.object(properties).encode(into: &bytes)
        return bytes
    }
}
