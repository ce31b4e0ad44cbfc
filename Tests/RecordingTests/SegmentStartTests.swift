import Foundation
import Logging
import Media
import Testing
import TestSupport
@testable import Recording

/// Where a segment starts, decided by Media's `KeyframeGate` inside the recorder: at a video
/// keyframe and nothing before it, sound included; after a segment is finished, at the next
/// keyframe again. Checked on the files with ffprobe and ffmpeg, on a real x264 stream.
@Suite struct SegmentStartTests {
    static let sound = DecoderConfiguration(parameterSets: [[0x11, 0x90]])

    /// 40 pictures of 64x64 H.264 from ffmpeg's x264 (a keyframe every 10, no B-frames), 33 ms apart.
    static func pictures() throws -> [MediaPacket] {
        let stream = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=30", "-frames:v", "40", "-c:v", "libx264",
            "-g", "10", "-keyint_min", "10", "-sc_threshold", "0", "-bf", "0", "-threads", "1", "-f", "h264", "-",
        ])
        var parameterSets: [[UInt8]] = []
        var pictures: [MediaPacket] = []
        for unit in annexBUnits(Array(stream)) {
            switch unit[0] & 0x1F {
            case 7, 8: if pictures.isEmpty { parameterSets.append(unit) }
            case 1, 5:
                let time = Int64(pictures.count) * 33
                pictures.append(MediaPacket(
                    codec: .h264, decoderConfiguration: DecoderConfiguration(parameterSets: parameterSets),
                    isKeyframe: unit[0] & 0x1F == 5, dts: time, pts: time, captureTime: time, units: [unit]))
            default: continue  // SEI, delimiters
            }
        }
        return pictures
    }

    static func annexBUnits(_ bytes: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        var index = 0
        while index + 3 <= bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { number, start in
            var end = number + 1 < starts.count ? starts[number + 1] - 3 : bytes.count
            while end > start, bytes[end - 1] == 0 { end -= 1 }  // a 4-byte start code's leading zero
            return Array(bytes[start..<end])
        }
    }

    /// An AAC packet beside each picture (its bytes are never decoded here).
    static func sound(at time: Int64) -> MediaPacket {
        MediaPacket(codec: .aac, decoderConfiguration: sound, isKeyframe: true, dts: time, pts: time, captureTime: time, units: [[0x21, 0x10, 0x04]])
    }

    /// (stream index, keyframe) of each packet in `path`, in file order. (ffprobe's probe decodes
    /// a little of the stand-in sound and complains; only its exit status counts.)
    static func packets(in path: String) throws -> [(stream: Int, keyframe: Bool)] {
        let result = try FFmpegTools.result("ffprobe", [
            "-v", "error", "-show_entries", "packet=stream_index,flags", "-of", "compact=p=0:nk=1", path,
        ])
        try #require(result.status == 0, "ffprobe: \(result.stderr)")
        return result.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: "|")
            return (Int(fields[0]) ?? -1, fields.count > 1 && fields[1].hasPrefix("K"))
        }
    }

    @Test func aSegmentStartsAtAKeyframeAndAgainAtTheNextOneAfterItIsFinished() throws {
        let pictures = try Self.pictures()
        try #require(pictures.count == 40)
        try #require(pictures.indices.filter { pictures[$0].isKeyframe } == [0, 10, 20, 30])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-segment-start-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let counters = RecordingCounters()
        let recorder = SegmentRecorder(
            settings: RecordingSettings(directory: directory, namePattern: "segment.mp4"),
            stream: RecordedStream(width: 64, height: 64, frameRate: FrameRate(numerator: 30), audioSampleRate: 48_000, audioChannels: 2),
            logger: Logger(label: "test"), counters: counters)
        func feed(_ range: Range<Int>) {
            for number in range {
                recorder.handle(Self.sound(at: pictures[number].dts))
                recorder.handle(pictures[number])
            }
        }

        feed(3..<10)
        #expect(counters.segmentsStarted.load(ordering: .relaxed) == 0, "nothing before the first keyframe, sound included")
        feed(10..<20)
        let first = try #require(counters.current.withLock { $0?.name })
        recorder.finish()
        feed(21..<30)
        #expect(counters.segmentsStarted.load(ordering: .relaxed) == 1, "after a finish, nothing until the next keyframe")
        feed(30..<40)
        let second = try #require(counters.current.withLock { $0?.name })
        recorder.finish()
        #expect(counters.segmentsStarted.load(ordering: .relaxed) == 2)
        #expect(counters.videoFrames.load(ordering: .relaxed) == 20)
        #expect(first != second)

        for name in [first, second] {
            let path = "\(directory)/\(name)"
            let packets = try Self.packets(in: path)
            let video = packets.filter { $0.stream == 0 }
            #expect(video.count == 10)
            #expect(video.first?.keyframe == true, "\(name) starts at a keyframe")
            #expect(packets.first?.stream == 0, "\(name): no sound ahead of its first picture")
            // The sound handed over just ahead of the keyframe is skipped: it resumes with the picture.
            #expect(packets.count { $0.stream == 1 } == 9, "\(name): the sound from its keyframe on")
            // Every picture decodes: nothing in the file refers to a picture before its start.
            let decode = try FFmpegTools.result("ffmpeg", ["-v", "error", "-xerror", "-i", path, "-map", "0:v", "-f", "null", "-"])
            let complaints = decode.stderr.split(separator: "\n").filter { !$0.hasPrefix("[aac") }
            #expect(decode.status == 0 && complaints.isEmpty, "\(name): \(decode.stderr)")
        }
    }
}
