@testable import Capture
import Conversion
import Logging
import Media
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
import V4L2
#endif

/// No assertion here depends on how fast anything runs: sources play in `.fast` pace and the
/// checks are on counts and bytes.
@Suite struct CameraReplaySourceTests {
    final class Collector: Sendable {
        let frames = SharedLock<[VideoFrame]>([])
        let endings = SharedLock<[String?]>([])
        let ended = Atomic<Bool>(false)

        func add(_ frame: VideoFrame) { frames.withLock { $0.append(frame.owned()) } }
        func end(_ error: (any Error)?) {
            endings.withLock { $0.append(error.map { "\($0)" }) }
            ended.store(true, ordering: .releasing)
        }

        /// Polls until playback ended; the bound only keeps a broken source from hanging the run.
        func waitForEnd() {
            for _ in 0..<2000 where !ended.load(ordering: .acquiring) { usleep(5000) }
        }
    }

    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Plays `settings` once, flat out, and returns the frames, how it ended and the source.
    static func play(_ settings: CameraReplaySettings) throws -> ([VideoFrame], [String?], CameraReplaySource) {
        let collector = Collector()
        let source = try CameraReplaySource(settings: settings, logger: logger) { collector.end($0) }
        try source.start { collector.add($0) }
        collector.waitForEnd()
        source.stop()
        return (collector.frames.withLock { $0 }, collector.endings.withLock { $0 }, source)
    }

    /// FNV-1a over the planes the encoder is handed for `frame` (what the conversion stage gives
    /// it), row by row so that strides do not count.
    static func encoderInputChecksum(_ frame: VideoFrame, conversion: ConversionStage) throws -> UInt64 {
        try conversion.convert(frame) { picture in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            let (width, height) = (picture.width, picture.height)
            let chroma = picture.pixelFormat == .nv12 ? [(width, height / 2)] : [(width / 2, height / 2), (width / 2, height / 2)]
            picture.withUnsafeBytes { bytes in
                for (plane, (rowBytes, rows)) in zip(picture.planes, [(width, height)] + chroma) {
                    for row in 0..<rows {
                        for byte in bytes[(plane.offset + row * plane.bytesPerRow)..<(plane.offset + row * plane.bytesPerRow + rowBytes)] {
                            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                        }
                    }
                }
            }
            return hash
        }
    }

    /// The same JPEGs through the V4L2 capture loop's MJPEG step (decoded by `MJPEGFrameDecoding`
    /// and laid out as the loop delivers them) and through the replay source give the encoder the
    /// same planes, frame by frame.
    @Test func replayedMJPEGReachesTheEncoderAsTheCameraPathWould() throws {
        let stream = try MJPEGClip.stream(frames: 6)
        let images = MJPEGClip.images(stream)
        let path = try MJPEGClip.file(stream)
        #expect(try CameraReplaySource.mjpegSize(path: path) == VideoSize(width: 320, height: 180))
        let (replayed, endings, source) = try Self.play(
            CameraReplaySettings(
                path: path, format: .mjpeg, size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 30),
                loop: false, pace: .fast))
        #expect(endings == [nil])
        #expect(source.corruptFrames == 0)
        try #require(replayed.count == images.count)

        let camera = try #require(MJPEGFrameDecoding(width: 320, height: 180, keepsLastPicture: true, logger: Self.logger, countCorrupt: {}))
        let conversion = ConversionStage(size: VideoSize(width: 320, height: 180), scaling: .fit)
        for (index, image) in images.enumerated() {
            let picture = try #require(image.withUnsafeBytes { camera.decode($0, sequence: UInt64(index)) })
            let layout = camera.layout
            let captured = VideoFrame(
                width: layout.width, height: layout.height, pixelFormat: layout.pixelFormat, planes: layout.planes,
                bytes: picture, timestamp: MonotonicTime(nanoseconds: 0), sequence: UInt64(index))
            #expect(try Self.encoderInputChecksum(replayed[index], conversion: conversion) == Self.encoderInputChecksum(captured, conversion: conversion))
        }
        // And the frames differ from each other: the comparison is not of grey pictures.
        #expect(Set(try replayed.map { try Self.encoderInputChecksum($0, conversion: conversion) }).count == images.count)
    }

    /// A corrupt frame (bytes overwritten inside its scan) and a truncated one are dropped and
    /// counted, and their slots stay empty; the good frames around them still arrive.
    @Test func corruptAndTruncatedJPEGsAreDroppedAndCounted() throws {
        let images = MJPEGClip.images(try MJPEGClip.stream(frames: 5))
        var corrupt = images[1]
        for index in (corrupt.count / 2)..<(corrupt.count / 2 + 64) { corrupt[index] = 0xFF }
        let truncated = Array(images[3].prefix(images[3].count * 2 / 3))
        let path = try MJPEGClip.file(images[0] + corrupt + images[2] + truncated + images[4])
        let (frames, endings, source) = try Self.play(
            CameraReplaySettings(
                path: path, format: .mjpeg, size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 30),
                loop: false, pace: .fast))
        #expect(endings == [nil])
        #expect(source.corruptFrames == 2)
        #expect(frames.map(\.sequence) == [0, 2, 4])
    }

    /// Raw YUYV frames arrive as the V4L2 path delivers them (device layout, converted by the
    /// encoder), byte for byte, and looping plays the file again.
    @Test func rawFramesArriveInTheDeviceLayout() throws {
        let width = 32, height = 16, frameBytes = 2 * 32 * 16
        let bytes = (0..<3).flatMap { frame in (0..<frameBytes).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ frame) } }
        let path = try MJPEGClip.file(bytes, name: "clip.yuyv")
        let (frames, endings, _) = try Self.play(
            CameraReplaySettings(
                path: path, format: .raw(.yuyv), size: VideoSize(width: width, height: height), frameRate: FrameRate(numerator: 30),
                loop: false, pace: .fast))
        #expect(endings == [nil])
        #expect(frames.map { $0.copiedBytes() } == [0, 1, 2].map { Array(bytes[($0 * frameBytes)..<(($0 + 1) * frameBytes)]) })
        let layout = try #require(V4L2FrameLayout(pixelFormat: .yuyv, width: width, height: height, bytesPerLine: 0, sizeImage: 0))
        #expect(frames.allSatisfy { $0.pixelFormat == .yuyv && $0.planes == layout.planes })
    }

    /// Raw frames of a regular file are read into one buffer the source owns and reuses for every
    /// frame (the same storage each delivery; the overlay draws on it in place, with no
    /// copy-on-write fault), a partial frame at the end is dropped, and a filter that scribbles
    /// over a frame spoils neither the file nor the next frame.
    @Test func rawFramesOfAFileAreReadIntoOneReusedBuffer() throws {
        let width = 64, height = 32, frameBytes = 2 * 64 * 32
        let bytes = (0..<(2 * frameBytes + frameBytes / 2)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) }
        let path = try MJPEGClip.file(bytes, name: "clip.yuyv")
        let seen = SharedLock<[(borrowed: Bool, address: UInt, bytes: [UInt8])]>([])
        let ended = Atomic<Bool>(false)
        let source = try CameraReplaySource(
            settings: CameraReplaySettings(
                path: path, format: .raw(.yuyv), size: VideoSize(width: width, height: height),
                frameRate: FrameRate(numerator: 30), loop: false, pace: .fast),
            logger: Self.logger) { _ in ended.store(true, ordering: .releasing) }
        try source.start { frame in
            let (address, picture) = frame.withUnsafeBytes { (UInt(bitPattern: $0.baseAddress), Array($0)) }
            seen.withLock { $0.append((frame.isBorrowed, address, picture)) }
            _ = frame.withBytesInPlace { $0.initializeMemory(as: UInt8.self, repeating: 0xFF) }
        }
        for _ in 0..<2000 where !ended.load(ordering: .acquiring) { usleep(5000) }
        source.stop()
        let frames = seen.withLock { $0 }
        #expect(frames.map(\.borrowed) == [false, false])
        #expect(Set(frames.map(\.address)).count == 1, "one buffer for every frame")
        #expect(frames.map(\.bytes) == [0, 1].map { Array(bytes[($0 * frameBytes)..<(($0 + 1) * frameBytes)]) })
        #expect(try Y4MClip.contents(of: path) == bytes, "the file is never written")
    }

    @Test func aFileWithoutAFrameIsAnError() throws {
        let path = try MJPEGClip.file([], name: "empty.mjpeg")
        let (frames, endings, _) = try Self.play(
            CameraReplaySettings(
                path: path, format: .mjpeg, size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 30),
                loop: true, pace: .fast))
        #expect(frames.isEmpty)
        #expect(endings == ["invalid capture settings: \(path) holds no MJPG frame"])
    }
}
