import FLV
import Foundation
import TestSupport

/// Which of the encoder's pictures reached the server, picture by picture: nginx-rtmp's recording
/// of the run against the run's own `.flv` file output (every picture the encoder made: a local
/// disk keeps up, and a file output does not take part in adaptive bitrate), matched by their bytes
/// (HashedPackets, ffprobe's MD5 of each packet).
///
/// A slot the source skipped on a loaded machine is in neither file, so it is no loss here; a GOP
/// the send queue dropped is a run of the reference's pictures missing from the recording,
/// however short. Unlike a gap in the recording's timestamps (which a busy source's skips leave
/// too, longer the slower the machine), that property does not depend on the machine's speed.
struct DeliveredPictures {
    /// Pictures the encoder made that never reached the server: one run, in the reference's stream
    /// time (ms from the run's first picture).
    struct Lost: CustomStringConvertible {
        var firstMilliseconds: Int
        var lastMilliseconds: Int
        var pictures: Int

        var description: String { "\(pictures) pictures \(firstMilliseconds)…\(lastMilliseconds) ms" }
    }

    let lost: [Lost]
    /// Anything else that differs: a picture the encoder did not make, or one whose time or
    /// keyframe flag differs from the encoder's.
    let problems: [String]
    /// Pictures the reference holds before the recording's first and after its last.
    let missingAtStart: Int
    let missingAtEnd: Int
    let referencePictures: Int

    init(recording: URL, reference: URL) throws {
        try self.init(recording: recording, encoded: try HashedPackets(reference))
    }

    /// `encoded`: the reference, hashed once for several recordings of the same run.
    init(recording: URL, encoded: HashedPackets) throws {
        let located = encoded.locate(try HashedPackets(recording))
        let start = encoded.packets.first?.dts ?? 0
        lost = located.missing.map { run in
            Lost(firstMilliseconds: encoded.packets[run.lowerBound].dts - start,
                 lastMilliseconds: encoded.packets[run.upperBound].dts - start, pictures: run.count)
        }
        problems = located.problems.filter { !$0.contains("missing inside the recording") }
        missingAtStart = max(0, located.first)
        missingAtEnd = located.last < 0 ? encoded.packets.count : encoded.packets.count - 1 - located.last
        referencePictures = encoded.packets.count
    }

    var summary: String {
        "\(referencePictures) pictures encoded; lost: \(lost.isEmpty ? "none" : "\(lost)"); not in the recording at the start \(missingAtStart), "
            + "at the end \(missingAtEnd)\(problems.isEmpty ? "" : "; \(problems.prefix(3))")"
    }
}

extension RTMPServer {
    /// Waits until nginx-rtmp's recording of stream `name` holds a picture (a video tag with an
    /// H.264 NAL unit, not the decoder configuration) and returns when the test saw it: the
    /// stream's first picture was captured before that instant. Polled every 20 ms.
    func firstPictureRecorded(_ name: String, timeout: Double) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let bytes = try? Data(contentsOf: recording(name)) {
                var reader = FLVReader()
                let tags = (try? reader.feed(bytes)) ?? []
                if tags.contains(where: { $0.type == .video && $0.bodyCount > 1 && $0.body[1] == 1 }) { return Date() }
            }
            usleep(20_000)
        }
        return nil
    }
}
