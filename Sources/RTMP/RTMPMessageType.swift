/// RTMP message type ids carried by a publisher (RTMP spec 1.0, Adobe 2012, §7.1:
/// audio 8, video 9, AMF0 data 18). They equal the FLV tag types (FLV spec v10, annex E.4.1),
/// which is why an FLV tag body can be sent as an RTMP message body unchanged; the RTMP
/// module still does not depend on the FLV module.
public enum RTMPMessageType: UInt8, Sendable, Hashable, CaseIterable {
    case audio = 8
    case video = 9
    case dataAMF0 = 18
}
