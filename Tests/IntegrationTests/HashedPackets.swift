import Foundation
import TestSupport

/// A recording's video packets as ffprobe reads them, each with the MD5 of its bytes.
struct HashedPackets {
    struct Packet {
        var dts: Int
        var isKeyframe: Bool
        var hash: Substring
    }

    let name: String
    let packets: [Packet]

    init(_ file: URL) throws {
        name = file.lastPathComponent
        let result = try FFmpegTools.result(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_data_hash", "MD5", "-show_entries", "packet=dts,flags,data_hash",
             "-of", "csv=p=0", file.path])
        guard result.status == 0 else { throw HarnessError("ffprobe failed on \(file.path): \(result.stderr)") }
        packets = result.stdout.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: ",")
            guard columns.count == 3, let dts = Int(columns[0]) else { return nil }
            return Packet(dts: dts, isKeyframe: columns[1].hasPrefix("K"), hash: columns[2])
        }
    }

    /// Where a recording's pictures are in this reference: each found by its bytes, searching on
    /// from the previous one. Problems: a picture the reference does not have, a picture skipped
    /// inside the recording, or timestamps and keyframes that differ from the encoder's.
    func locate(_ recording: HashedPackets) -> Located {
        var located = Located(first: -1, last: -1)
        var next = 0
        for (position, packet) in recording.packets.enumerated() {
            guard let index = packets[next...].firstIndex(where: { $0.hash == packet.hash }) else {
                located.problems.append("\(recording.name): picture \(position) is not in the reference after #\(next)")
                break
            }
            if position == 0 {
                located.first = index
                located.startsWithKeyframe = packet.isKeyframe
            } else if index != next {
                located.problems.append("\(recording.name): pictures #\(next)…#\(index - 1) missing inside the recording")
                located.missing.append(next...(index - 1))
            }
            let first = recording.packets[0].dts, base = packets[located.first].dts
            if packet.dts - first != packets[index].dts - base || packet.isKeyframe != packets[index].isKeyframe {
                located.problems.append("\(recording.name): picture #\(index) at \(packet.dts - first) ms (key \(packet.isKeyframe)), the encoder's at \(packets[index].dts - base) ms (key \(packets[index].isKeyframe))")
            }
            located.last = index
            located.count += 1
            next = index + 1
        }
        if recording.packets.isEmpty { located.problems.append("\(recording.name): no video") }
        return located
    }

    /// The longest run of pictures none of `covered` holds, from the first covered to the last, in
    /// the reference's milliseconds (from the picture before the run to the one after it).
    func longestMissingMilliseconds(covered: [Located]) -> Int {
        var held = Set<Int>()
        for part in covered where part.first >= 0 { held.formUnion(part.first...part.last) }
        guard let start = held.min(), let end = held.max() else { return Int.max }
        var longest = 0
        var previous = start
        for index in start...end where held.contains(index) {
            longest = max(longest, packets[index].dts - packets[previous].dts)
            previous = index
        }
        return longest
    }

    struct Located {
        var first: Int
        var last: Int
        var count = 0
        var startsWithKeyframe = false
        var problems: [String] = []
        /// The runs of the reference's pictures (indices) missing between the first and the last found.
        var missing: [ClosedRange<Int>] = []
    }
}
