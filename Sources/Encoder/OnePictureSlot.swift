/// The send/receive bookkeeping of a one-call library (x264, x265): a send is one encode call, and
/// the picture it returned (if any) waits here for the next receive. Once the input has ended, a
/// receive that finds the slot empty asks the library for what it still holds; only that drain
/// differs between the libraries, so each backend passes its own.
///
/// A value inside its backend, which the session's lock already guards. The closures must not
/// touch the slot itself (it is being mutated while they run).
struct OnePictureSlot {
    private var received: EncoderBackendOutput?
    /// The session sent the end of the stream: no more sends, receives drain the library.
    private(set) var isEnded = false

    /// Runs `encode` (the library call) unless the input has ended (`.closed`) or the last
    /// picture has not been received yet (`.full`, and `encode` is not run).
    mutating func send(
        _ encode: () throws(EncoderError) -> EncoderBackendOutput?
    ) throws(EncoderError) -> EncoderSendStatus {
        guard !isEnded else { throw .closed }
        guard received == nil else { return .full }
        received = try encode()
        return .accepted
    }

    mutating func end() {
        isEnded = true
    }

    /// The waiting picture, if any, which leaves the slot.
    mutating func take() -> EncoderBackendOutput? {
        defer { received = nil }
        return received
    }

    /// The waiting picture; else, before the end, `.needsInput`; after it, the next picture
    /// `drain` gets from the library, or `.drained` when it returns nil.
    mutating func receive(
        draining drain: () throws(EncoderError) -> EncoderBackendOutput?
    ) throws(EncoderError) -> EncoderReceiveStatus {
        if let picture = take() { return .picture(picture) }
        guard isEnded else { return .needsInput }
        return try drain().map(EncoderReceiveStatus.picture) ?? .drained
    }
}
