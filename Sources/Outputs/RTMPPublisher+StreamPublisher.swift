import RTMP

/// librtmp behind the output's publisher protocol; the publisher's own API is used unchanged.
extension RTMPPublisher: StreamPublisher {
    package var connectionWatch: RTMPConnectionWatch? { watch }
    package func cancelConnect() { watch.cancel() }
}
