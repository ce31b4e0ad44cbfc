@testable import Encoder
import Foundation
import Media
import TestSupport
import Testing

/// `encoder.options`: libavcodec options reach the encoder through avcodec_open2's dictionary, and
/// their names and values are checked against libavcodec's tables without opening anything.
@Suite struct AVCodecOptionsTests {
    static func settings(_ options: [String: String], name: String = "libx264") -> EncoderSettings {
        var settings = AVCodecEncoderTests.settings(name: name)
        settings.codecOptions = options.sorted { $0.key < $1.key }.map { EncoderOption(name: $0.key, value: $0.value) }
        return settings
    }

    /// The frames (of 30) that come out as keyframes, by the backend and by ffprobe reading them.
    static func keyframes(_ options: [String: String]) throws -> (backend: [Int], ffprobe: [Int]) {
        let backend = try AVCodecEncoder(settings: Self.settings(options), logger: Harness.quietLogger)
        var outputs: [EncoderBackendOutput] = []
        for index in 0..<30 {
            #expect(try AVCodecEncoderTests.send(backend, index, forceIDR: index == 0) == .accepted)
            while case .picture(let picture) = try backend.receive() { outputs.append(picture) }
        }
        let file = try AVCodecEncoderTests.finish(backend, &outputs, writing: "avcodec-options-\(UUID().uuidString).h264")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let flags = String(decoding: try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v", "-show_entries", "packet=flags", "-of", "csv=p=0", file,
        ]), as: UTF8.self).split(separator: "\n")
        #expect(flags.count == 30)
        return (outputs.indices.filter { outputs[$0].isKeyframe }, flags.indices.filter { flags[$0].hasPrefix("K") })
    }

    @Test("libx264's g (an AVCodecContext option) and x264-params (its own) set the GOP the output shows")
    func optionsReachTheEncoder() throws {
        // Without options the session forces the first IDR only (its interval is 100 s).
        let plain = try Self.keyframes([:])
        #expect(plain.backend == [0] && plain.ffprobe == [0])
        let gop = try Self.keyframes(["g": "10"])
        #expect(gop.backend == [0, 10, 20] && gop.ffprobe == [0, 10, 20], "\(gop)")
        let params = try Self.keyframes(["x264-params": "keyint=15"])
        #expect(params.backend == [0, 15] && params.ffprobe == [0, 15], "\(params)")
    }

    @Test("names and values are checked against libavcodec's tables; a mem2mem option without a device is fine")
    func namesAndValuesAreChecked() {
        #expect(Self.settings(["num_capture_buffers": "8"], name: "h264_v4l2m2m").validate().isEmpty)
        #expect(Self.settings(["preset": "fast", "g": "30", "bf": "0"]).validate().isEmpty)
        let unknown = Self.settings(["presett": "fast"]).validate()
        #expect(unknown.map(\.setting) == ["encoder.options.presett"])
        #expect(unknown.first?.allowed.contains("avcodec:libx264 has no such option") == true, "\(unknown)")
        // An audio encoder's option, and a named constant of another option, are not options here.
        #expect(Self.settings(["ar": "48000"]).validate().map(\.setting) == ["encoder.options.ar"])
        #expect(Self.settings(["veryfast": "1"]).validate().map(\.setting) == ["encoder.options.veryfast"])
        // A typed option's value is parsed as libavcodec would (a free-text one such as libx264's
        // preset is the encoder's to judge, at open).
        let value = Self.settings(["g": "ten", "forced-idr": "maybe"]).validate()
        #expect(value.map(\.setting) == ["encoder.options.forced-idr", "encoder.options.g"], "\(value)")
        #expect(value.map(\.value) == ["maybe", "ten"])
        var library = Self.settings(["preset": "fast"])
        library.implementation = .library
        let refused = library.validate()
        #expect(refused.map(\.setting) == ["encoder.options"])
        #expect(refused.first?.allowed.contains("libx264 takes preset, realtime") == true, "\(refused)")
    }

    @Test("the option names for a did-you-mean: the context's for video encoding and the encoder's own")
    func optionNames() {
        let names = EncoderSettings.avcodecOptionNames(encoder: "libx264")
        #expect(["g", "bf", "preset", "tune", "x264-params", "forced-idr"].allSatisfy(names.contains), "\(names)")
        #expect(!names.contains("ar") && !names.contains("veryfast"))
        #expect(EncoderSettings.avcodecOptionNames(encoder: "h264_v4l2m2m").contains("num_capture_buffers"))
    }
}
