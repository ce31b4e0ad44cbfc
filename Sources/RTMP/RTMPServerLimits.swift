/// Bounds on what a server may send a publisher. A publisher receives only small protocol
/// control and command messages (a connect `_result` or an onStatus is a few hundred bytes;
/// nginx-rtmp's largest is under 300), so these leave a wide margin for real servers and none
/// for the attacks of issue 19 (16 MiB messages, 65 599 interleaved chunk streams, AMF0 nested
/// 20 000 deep or 2 000 000 properties wide).
struct RTMPServerLimits: Sendable, Hashable {
    /// Longest server message accepted (the declared length is checked before any byte of it is
    /// buffered).
    var maximumMessageBytes = 64 * 1024
    /// Chunk streams that may hold an incomplete message at once.
    var maximumPartialMessages = 8
    /// Distinct chunk stream ids a server may use (each keeps a small header state).
    var maximumChunkStreams = 64
    /// AMF0 object/array nesting; librtmp's decoder and dumper recurse once per level.
    var maximumAMFDepth = 16
    /// AMF0 values (including object properties and array elements) in one message; librtmp
    /// logs each one.
    var maximumAMFValues = 1024
}
