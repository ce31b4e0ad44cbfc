internal import CAVFormat
import Media

#if canImport(Glibc)
import Glibc
#endif

/// One fragmented MP4 being written by libavformat's mov muxer: a fragment at every video
/// keyframe, each written and fdatasync'ed before the next begins, so a power cut or `kill -9`
/// leaves a file that plays up to its last complete fragment.
///
/// Times in the file start at the first keyframe's decode time (0), video in milliseconds, the
/// sound in samples, counted on from its first frame so 21⅓ ms frames keep their exact length.
/// A picture lasts until the next one. The mov muxer works that out itself for every picture but
/// a file's last, which keeps the duration it is given; so each picture waits here for the next
/// one's decode time (one frame interval), and a file cut at a keyframe ends its last picture at
/// the next file's first (a loaded machine's source skips slots: one interval would leave a hole
/// between two files). Used by one thread only (the recorder's).
final class SegmentFile {
    let path: String
    private let descriptor: Int32
    private var muxer: UnsafeMutablePointer<cavformat_mp4>?
    private let originDts: Int64
    /// The opening keyframe's presentation time: 0 in the file. A stream with sound shows every
    /// picture a fixed delay after its decode time (the interleaver's presentation delay); the
    /// file leaves that delay out, pictures and sound alike, so both start at 0 (the mov muxer's
    /// edit list would otherwise start the pictures at 0 and the sound at the delay).
    private let originPts: Int64
    private let audioSampleRate: Int?
    /// The last picture's duration in the file's video time base (milliseconds), when nothing
    /// comes after it: one frame interval.
    private let videoDuration: Int64
    /// The last sound frame's decode time in the file (samples): the muxer refuses one that does
    /// not move on (pictures are held to that by `lastPictureDts`).
    private var lastAudioTicks = Int64.min
    /// The picture that waits for the next one's decode time, then the sound that came after it
    /// (kept behind it, so the muxer gets everything in the order it came).
    private var waiting: [MediaPacket] = []
    /// The decode time of the last picture taken, on the stream's clock.
    private var lastPictureDts = Int64.min
    private var nextAudioTicks: Int64?
    /// Bytes on the disk for sure: up to the end of the last fragment synced.
    private(set) var syncedBytes: Int64 = 0
    private(set) var videoFrames = 0
    /// Fragments written and synced whole: a file with none holds no picture and is not kept.
    private(set) var completeFragments = 0
    let decoderConfiguration: DecoderConfiguration

    /// Creates `path` (never over an existing file) and writes the header, starting at `keyframe`.
    init(path: String, keyframe: MediaPacket, stream: RecordedStream, audioConfiguration: [UInt8]?) throws(SegmentError) {
        self.path = path
        originDts = keyframe.dts
        originPts = keyframe.pts
        decoderConfiguration = keyframe.decoderConfiguration
        let opened = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            let code = errno
            throw SegmentError(path: path, action: "create", reason: String(cString: strerror(code)), errno: code)
        }
        descriptor = opened
        // The rate the sound's own configuration names: a reload may have changed it since the start.
        let audio = audioConfiguration.flatMap { config in
            (AudioSpecificConfig.sampleRate(of: config) ?? stream.audioSampleRate).map { (config: config, rate: $0, channels: stream.audioChannels ?? 2) }
        }
        audioSampleRate = audio?.rate
        videoDuration = Self.milliseconds(of: stream.frameRate)
        let video = Self.annexB(keyframe.decoderConfiguration.parameterSets)
        var created: UnsafeMutablePointer<cavformat_mp4>?
        cavformat_quiet()
        let result = video.withUnsafeBufferPointer { videoBytes in
            (audio?.config ?? []).withUnsafeBufferPointer { audioBytes in
                cavformat_mp4_open(
                    &created, opened, stream.container == .ts ? 1 : 0, keyframe.codec == .h265 ? 1 : 0, Int32(stream.width), Int32(stream.height),
                    videoBytes.baseAddress, Int32(videoBytes.count), Int32(audio?.rate ?? 0), Int32(audio?.channels ?? 0),
                    audio == nil ? nil : audioBytes.baseAddress, Int32(audioBytes.count))
            }
        }
        guard result >= 0, let created else {
            let written = created?.pointee.write_errno ?? 0
            Glibc.close(opened)
            unlink(path)
            throw SegmentError(path: path, action: "start", reason: Self.text(result), errno: written == 0 ? nil : written)
        }
        muxer = created
        do {
            try sync()
            try write(keyframe)
        } catch {
            // Not one fragment: nothing worth keeping (and nothing the index would ever delete).
            abandon()
            unlink(path)
            throw error
        }
    }

    deinit {
        if muxer != nil { abandon() }
    }

    var bytes: Int64 { muxer?.pointee.bytes ?? syncedBytes }
    var hasAudio: Bool { audioSampleRate != nil }
    /// Stream time since the segment's first keyframe, in milliseconds.
    func elapsed(at dts: Int64) -> Int64 { dts - originDts }

    /// Takes `packet` for the muxer: a picture once the next one says how long it lasts, the
    /// sound after it behind it. A video keyframe closes the fragment before it, which goes to
    /// the disk and is synced once the keyframe reaches the muxer, before anything of the next
    /// fragment is written.
    func write(_ packet: MediaPacket) throws(SegmentError) {
        guard muxer != nil else { return }
        switch packet.mediaKind {
        case .video:
            // The muxer refuses a decode time that does not move on.
            guard packet.dts > lastPictureDts else { return }
            lastPictureDts = packet.dts
            try writeWaiting(until: packet.dts)
            waiting = [packet]
        case .audio:
            guard hasAudio else { return }
            if waiting.isEmpty { try mux(packet, pictureDuration: videoDuration) } else { waiting.append(packet) }
        }
    }

    /// The waiting picture, lasting until `end` (a decode time on the stream's clock), and the
    /// sound behind it.
    private func writeWaiting(until end: Int64) throws(SegmentError) {
        guard let picture = waiting.first else { return }
        let queued = waiting
        waiting = []
        try mux(picture, pictureDuration: end - picture.dts)
        for sound in queued.dropFirst() { try mux(sound, pictureDuration: videoDuration) }
    }

    private func mux(_ packet: MediaPacket, pictureDuration: Int64) throws(SegmentError) {
        guard let muxer else { return }
        let isVideo = packet.mediaKind == .video
        let stream = isVideo ? 0 : 1
        var dts = packet.dts - (isVideo ? originDts : originPts)
        var pts = packet.pts - originPts
        var timescale: Int32 = 1000
        var duration = pictureDuration
        if let rate = audioSampleRate, !isVideo {
            // Sound from before the first picture has no place in this file.
            guard dts >= 0 else { return }
            let exact = dts * Int64(rate) / 1000
            // On from the previous frame unless the clock says a frame or more went missing.
            if let next = nextAudioTicks, abs(exact - next) < Self.samplesPerAACFrame { dts = next } else { dts = exact }
            pts = dts
            nextAudioTicks = dts + Self.samplesPerAACFrame
            duration = Self.samplesPerAACFrame
            timescale = Int32(rate)
        }
        if !isVideo {
            guard dts > lastAudioTicks else { return }
            lastAudioTicks = dts
        }
        let data = isVideo ? Self.annexB(packet.units) : (packet.units.first ?? [])
        let result = data.withUnsafeBufferPointer {
            cavformat_mp4_write(muxer, Int32(stream), $0.baseAddress, Int32($0.count), pts, dts, duration, timescale, packet.isKeyframe ? 1 : 0)
        }
        try check(result, action: "write")
        if isVideo {
            videoFrames += 1
            // The opening keyframe ends no fragment; every later one ends the one before it.
            if packet.isKeyframe {
                try sync()
                if videoFrames > 1 { completeFragments += 1 }
            }
        }
    }

    /// Writes the last fragment and closes the file. Its last picture lasts until `end` (the
    /// decode time of the keyframe that opens the next file) or, with nothing after it, one frame
    /// interval.
    func finish(endingAt end: Int64? = nil) throws(SegmentError) {
        guard let muxer else { return }
        do {
            try writeWaiting(until: end ?? lastPictureDts + videoDuration)
            try check(cavformat_mp4_finish(muxer), action: "finish")
            try sync()
            completeFragments += 1
        } catch {
            abandon()
            throw error
        }
        release()
    }

    /// Cuts the file back to its last complete fragment and closes it: what a full disk leaves
    /// stays playable.
    func abandon() {
        guard muxer != nil else { return }
        _ = ftruncate(descriptor, off_t(syncedBytes))
        _ = fdatasync(descriptor)
        release()
    }

    private func release() {
        waiting = []
        cavformat_mp4_free(muxer)
        muxer = nil
        Glibc.close(descriptor)
    }

    /// Everything the muxer gave out goes to the file and to the disk.
    private func sync() throws(SegmentError) {
        guard let muxer else { return }
        try check(cavformat_mp4_flush(muxer), action: "write")
        guard fdatasync(descriptor) == 0 else {
            let code = errno
            throw SegmentError(path: path, action: "sync", reason: String(cString: strerror(code)), errno: code)
        }
        syncedBytes = muxer.pointee.bytes
    }

    private func check(_ result: Int32, action: String) throws(SegmentError) {
        guard result < 0 else { return }
        let code = muxer?.pointee.write_errno ?? 0
        throw SegmentError(
            path: path, action: action, reason: code != 0 ? String(cString: strerror(code)) : Self.text(result),
            errno: code != 0 ? code : nil)
    }

    static func text(_ code: Int32) -> String {
        if code == -ELIBACC, let problem = RecordingLibrary.loadProblem() { return problem }
        var buffer = [CChar](repeating: 0, count: 128)
        cavformat_error_text(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An AAC-LC frame's samples (ISO/IEC 14496-3: 1024 per raw data block).
    static let samplesPerAACFrame: Int64 = 1024

    /// One frame interval (FrameRate's) in whole milliseconds (the video time base), at least 1:
    /// 33 at 30 fps, 33 at 30000/1001 (33.37 ms).
    static func milliseconds(of rate: FrameRate) -> Int64 {
        guard rate.isValid else { return 1 }
        return max(1, Int64((rate.frameIntervalNanoseconds + 500_000) / 1_000_000))
    }

    /// NAL units with four-byte start codes: the muxer turns them into length-prefixed samples
    /// and its avcC/hvcC box itself.
    static func annexB(_ units: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(units.reduce(0) { $0 + $1.count + 4 })
        for unit in units {
            bytes += [0, 0, 0, 1]
            bytes += unit
        }
        return bytes
    }
}
