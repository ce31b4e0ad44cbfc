import Media
import Synchronization

/// Keeps what a session's output handler was given, from any thread.
final class PacketCollector: Sendable {
    private let packets = Mutex<[MediaPacket]>([])

    func append(_ packet: MediaPacket) { packets.withLock { $0.append(packet) } }
    var all: [MediaPacket] { packets.withLock { $0 } }
}
