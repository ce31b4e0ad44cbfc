import CRTMP
import Foundation
@testable import RTMP

/// librtmp's own chunk reader (`RTMP_ReadPacket`), the reference for `RTMPChunkReader`: the same
/// bytes go over a socketpair into it, and the whole messages it assembles come back in the
/// reader's form. Test-only; the product never calls `RTMP_ReadPacket` (see CRTMP/shim.h).
///
/// What RTMP_ClientPacket would do between packets that changes how later chunks are read is done
/// here too: Set Chunk Size sets `m_inChunkSize`.
///
/// `packet` says which packet RTMP_ReadPacket fills. `.freshPerRead`: a zeroed one each call, so a
/// chunk stream's first header takes what it leaves out from a zeroed header — what FFmpeg's
/// rtmppkt.c does, and Camcast's reader. `.reusedAsTheClient`: one packet for the whole
/// connection, freed (its body only) after each whole message, as librtmp's own client loop
/// (RTMP_ConnectStream) does; there a chunk stream's first type 1/2/3 header takes what it leaves
/// out from whatever chunk came before on another chunk stream. On streams whose chunk streams all
/// start with a type 0 header the two read the same.
enum LibrtmpReader {
    enum Packet { case freshPerRead, reusedAsTheClient }

    static func messages(from bytes: [UInt8], packet mode: Packet = .freshPerRead) throws -> [RTMPChunkReader.Message] {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { throw POSIXError(.EIO) }
        let (readEnd, writeEnd) = (pair[0], pair[1])
        // The writer ends with a shutdown: librtmp's next read then fails, which ends the loop.
        let written = DispatchGroup()
        DispatchQueue.global().async(group: written) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { send(writeEnd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { break }
                offset += sent
            }
            shutdown(writeEnd, Int32(SHUT_WR))
        }
        guard let rtmp = RTMP_Alloc() else { throw POSIXError(.ENOMEM) }
        RTMP_Init(rtmp)
        rtmp.pointee.m_sb.sb_socket = readEnd
        var messages: [RTMPChunkReader.Message] = []
        var packet = RTMPPacket()
        while true {
            if mode == .freshPerRead { packet = RTMPPacket() }
            guard RTMP_ReadPacket(rtmp, &packet) != 0 else {
                RTMPPacket_Free(&packet)
                break
            }
            guard packet.m_nBytesRead == packet.m_nBodySize else { continue }  // librtmp keeps the partial body
            let length = Int(packet.m_nBodySize)
            let body = packet.m_body.map { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
            } ?? []
            messages.append(RTMPChunkReader.Message(chunkStream: Int(packet.m_nChannel), type: packet.m_packetType,
                                                    streamID: UInt32(bitPattern: packet.m_nInfoField2),
                                                    timestamp: packet.m_nTimeStamp, body: body))
            if packet.m_packetType == 1, body.count >= 4 {
                rtmp.pointee.m_inChunkSize = Int32(bitPattern: body.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            }
            RTMPPacket_Free(&packet)
        }
        RTMP_Close(rtmp)  // closes the read end: a writer still sending gets EPIPE
        RTMP_Free(rtmp)
        written.wait()
        close(writeEnd)
        return messages
    }
}
