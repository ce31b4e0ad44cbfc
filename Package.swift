// swift-tools-version:6.1
import PackageDescription

// The pipeline is visible in the targets:
//   Capture ─▶ Conversion ─▶ Overlay ─▶ Encoder ─▶ Outputs (FLV files, Annex-B files, RTMP over librtmp), wired together by
//   CamcastDaemon, started by `camcast`; the sound beside it: AudioCapture ─▶ AudioPath (AAC by AudioEncoder) ─▶ Outputs'
//   interleaver.
// Each C library is wrapped by exactly one thin `C*` system-library module and imported by exactly
// one Swift module (libavcodec by two: AudioEncoder's AAC, Encoder's avcodec video backend), always
// `internal import`, so no C type reaches a public API. FLV and RTMPAddress are pure Swift; Media
// links no C library (its one shim, CEventFD, is header-only).
let package = Package(
    name: "camcast",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "camcast", targets: ["camcast"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The operator's HTTP endpoint: SwiftNIO's HTTP/1 (no framework above it), and the Prometheus
        // text exposition through swift-prometheus (its CoreMetrics comes from swift-metrics).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // C libraries: one shim module each (module.modulemap + shim.h).
        .systemLibrary(name: "CX264", pkgConfig: "x264", providers: [.apt(["libx264-dev"])]),
        .systemLibrary(name: "CX265", pkgConfig: "x265", providers: [.apt(["libx265-dev"])]),
        .systemLibrary(name: "CRTMP", pkgConfig: "librtmp", providers: [.apt(["librtmp-dev"])]),
        // GnuTLS for rtmps:// (the handshake and certificate checks librtmp 2.4 does not do).
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),
        .systemLibrary(name: "CV4L2", providers: [.apt(["linux-libc-dev"])]),
        // eventfd(2) and ppoll(2), which Glibc's Swift module does not export: Media's WakeEvent,
        // the lock-free wait that paces the sources and wakes the device loops.
        .systemLibrary(name: "CEventFD", providers: [.apt(["libc6-dev"])]),
        .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // Sound: ALSA capture, libswresample for a WAV whose rate or channels differ, and libavcodec's
        // native AAC encoder (libavutil comes with it: frames, channel layouts, error text).
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSWResample", pkgConfig: "libswresample", providers: [.apt(["libswresample-dev"])]),
        // SRT output: libsrt's caller socket (live mode, AES, reject reasons), Debian's GnuTLS build.
        .systemLibrary(name: "CSRT", pkgConfig: "srt", providers: [.apt(["libsrt-gnutls-dev"])]),
        .systemLibrary(name: "CAVCodec", pkgConfig: "libavcodec", providers: [.apt(["libavcodec-dev"])]),
        // libyaml's event parser, which Config composes its node tree from (with line and column).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // Segmented recording: libavformat's mov muxer writing fragmented MP4.
        .systemLibrary(name: "CAVFormat", providers: [.apt(["libavformat-dev"])]),
        // FreeType rasterises the overlay's glyphs (the clock and text burned into the picture).
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),

        // Value types shared by the stages (frames, pixel formats, timestamps) and the threading
        // they share: Lock, ConditionLock, WakeEvent (CEventFD), DedicatedThread, SourceThread.
        .target(name: "Media", dependencies: ["CEventFD"]),
        // The one registry where every counter and gauge lives (atomics; pure Swift). The status line,
        // STATUS=, the stop summary, /status and /metrics all read it.
        .target(name: "Telemetry", dependencies: ["Media"]),
        // The operator's HTTP endpoint: /metrics, /status, /healthz, / and /snapshot.jpg over NIOHTTP1.
        .target(
            name: "StatusServer",
            dependencies: [
                "Media", "Telemetry",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // The V4L2 device layer, the one CV4L2 importer: an open node and its typed requests
        // (capabilities, enumeration, format and frame rate, buffers, streaming, input status), the
        // mapped buffer pool, frame layouts and the device listing. No frame policy and no logging, so
        // a V4L2 mem2mem encoder backend can stand on it as Capture does.
        .target(name: "V4L2", dependencies: ["Media", "CV4L2"]),
        // Stage 1: where frames come from (test pattern; V4L2 cameras through the V4L2 module, MJPEG
        // decoded with libturbojpeg; .y4m files, camera replays).
        .target(
            name: "Capture",
            dependencies: ["Media", "V4L2", "CTurboJPEG", "Overlay", .product(name: "Logging", package: "swift-log")]),
        // Filter between stage 1 and stage 2: text and a clock burned into each picture, in place.
        .target(name: "Overlay", dependencies: ["Media", "CFreeType", .product(name: "Logging", package: "swift-log")]),
        // Stage 1, sound: where PCM comes from (silence, a looped WAV file, an ALSA capture device).
        .target(
            name: "AudioCapture",
            dependencies: ["Media", "CALSA", "CSWResample", .product(name: "Logging", package: "swift-log")]),
        // Stage 2, sound: the AAC-LC encoder session (libavcodec's native encoder).
        .target(name: "AudioEncoder", dependencies: ["Media", "CAVCodec", .product(name: "Logging", package: "swift-log")]),
        // Between stage 1 and the filters: any raw frame to the encoder's picture (I420/NV12 at the
        // stream's size) with libyuv, on the capture thread; a frame that already is one goes on untouched.
        .target(name: "Conversion", dependencies: ["Media", "CYUV"]),
        // Stage 2: the encoder session, H.264 through libx264 or H.265 through libx265, or a named
        // libavcodec encoder (hardware ones it wraps: v4l2m2m, nvenc, qsv), taking the conversion
        // stage's pictures (libyuv for the NV12/I420 a backend wants). FLV for the one parser of
        // avcC/hvcC records, which some libavcodec encoders write as their extradata.
        .target(
            name: "Encoder",
            dependencies: ["Media", "FLV", "CX264", "CX265", "CYUV", "CAVCodec", .product(name: "Logging", package: "swift-log")]),
        // Stage 3: FLV wire format, pure Swift (Media for the one EINTR-retrying syscall helper).
        .target(name: "FLV", dependencies: ["Media"]),
        // RTMP URLs: the one parser and validator, and stream-key redaction. Pure Swift, so Config can
        // check `outputs[].url` by the same rules the publisher uses without linking librtmp.
        .target(name: "RTMPAddress"),
        // Stage 4: the librtmp publisher (GnuTLS for rtmps://; FLV for the one AMF0 decoder, which
        // checks a server's commands before librtmp sees them).
        .target(name: "RTMP", dependencies: ["CRTMP", "CGnuTLS", "FLV", "Media", "RTMPAddress", .product(name: "Logging", package: "swift-log")]),
        // Stage 4, SRT: one libsrt caller connection (options, send, the listener's reject reason).
        .target(name: "SRT", dependencies: ["CSRT", "Media", .product(name: "Logging", package: "swift-log")]),
        // Everything after the encoder: the outputs (RTMP, FLV file, Annex-B file), each muxing the
        // codec-neutral packets for itself on a thread of its own; the RTMP output's publish loop,
        // reconnect schedule, send queue and watchdog over a publisher protocol (librtmp's RTMPPublisher).
        .target(
            name: "Outputs",
            dependencies: [
                "Media", "Encoder", "FLV", "RTMP", "RTMPAddress", "SRT", "Telemetry", .product(name: "Logging", package: "swift-log"),
            ]),
        // Stage 4, files: segmented MP4 recording (libavformat's mov muxer, a fragment per keyframe,
        // each synced), its retention and its pause on a full disk.
        .target(
            name: "Recording",
            dependencies: ["Media", "Outputs", "Telemetry", "CAVFormat", .product(name: "Logging", package: "swift-log")]),
        // Configuration file model and validation over libyaml's events (CYAML): YAMLEventScan bounds a
        // file's work, YAMLComposer builds the node tree with each value's line and column. No
        // Foundation: a YAML library built on it would bring ICU's 30 MB into the static binary.
        .target(name: "Config", dependencies: ["Media", "RTMPAddress", "Schedule", "CYAML"]),
        // Schedules: windows of wall-clock times and sun events (NOAA's sunrise equations), read in
        // a tzdata zone by a TZif reader of its own. Pure Swift, no Foundation: FoundationEssentials
        // knows no named time zone, and the part of Foundation that does brings ICU.
        .target(name: "Schedule"),
        // The sound beside the video: an audio source's thread into its AAC session, whose packets go
        // to the interleaver (AudioStage), and a reload's swap of source and session in place.
        .target(name: "AudioPath", dependencies: ["Media", "AudioCapture", "AudioEncoder", .product(name: "Logging", package: "swift-log")]),
        // Wiring, lifecycle and status.
        .target(
            name: "CamcastDaemon",
            dependencies: [
                "Media", "Capture", "Conversion", "Encoder", "FLV", "RTMPAddress", "RTMP", "SRT", "Outputs", "Recording", "Config", "Schedule", "AudioCapture",
                "AudioEncoder", "AudioPath", "Overlay", "Telemetry", "StatusServer", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "camcast",
            dependencies: ["CamcastDaemon", "Capture", "Config", "Media", "V4L2", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // What several test targets need: the nginx-rtmp server (scripts/rtmp-server), ffmpeg/ffprobe,
        // child processes. Only test targets depend on it, so it never reaches the camcast binary.
        // Media only for the audio tests' frame collector (a value-type module, nothing linked in).
        // FLV for the tests' FLV reader (the product only writes FLV).
        .target(name: "TestSupport", dependencies: ["Media", "FLV", .product(name: "Logging", package: "swift-log")], path: "Tests/TestSupport"),

        // Media's threading without a stage: WakeEvent's waits, SourceThread's start, stop and pacing,
        // Lock's contended hand-overs (LockTests, for ThreadSanitizer), PublishedReference's swap.
        .testTarget(name: "MediaTests", dependencies: ["Media", "TestSupport"]),
        .testTarget(name: "FLVTests", dependencies: ["FLV", "Media", "TestSupport"]),
        .testTarget(
            name: "EncoderTests",
            dependencies: ["Encoder", "Conversion", "FLV", "Media", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "RTMPAddressTests", dependencies: ["RTMPAddress"]),
        .testTarget(
            name: "RTMPTests",
            // CRTMP: librtmp's own chunk reader is the reference in the differential test.
            dependencies: ["RTMP", "RTMPAddress", "CRTMP", "CRTMPLogProbe", "TestSupport", .product(name: "Logging", package: "swift-log")],
            exclude: ["Corpus"]),
        // RTMP_Log called from C for RTMPTests' log-routing tests (Swift cannot call a variadic C function).
        .target(name: "CRTMPLogProbe", dependencies: ["CRTMP"], path: "Tests/CRTMPLogProbe"),
        .testTarget(
            name: "CaptureTests",
            dependencies: ["Capture", "Conversion", "Media", "Overlay", "V4L2", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        // The device layer without a device: layouts, the listing's text and JSON, what a node that
        // is not V4L2 answers. Capture from a real driver is in CaptureIntegrationTests (vivid VM).
        .testTarget(name: "V4L2Tests", dependencies: ["V4L2", "Media"]),
        .testTarget(
            name: "AudioCaptureTests",
            dependencies: ["AudioCapture", "Media", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "AudioEncoderTests",
            dependencies: ["AudioEncoder", "Media", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "Media", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "OverlayTests", dependencies: ["Overlay", "Conversion", "Media"]),
        .testTarget(name: "ConversionTests", dependencies: ["Conversion", "Media", "TestSupport"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "Media", "RTMPAddress", "Schedule", "TestSupport"]),
        // Sunrise and sunset against published tables, the Berlin clock-change nights, windows
        // across midnight, polar day and night, the unset clock.
        .testTarget(name: "ScheduleTests", dependencies: ["Schedule"]),
        // The outputs' threads without a server: the RTMP output over a fake publisher, the send queue
        // and its batches, the FLV file writer, the interleaver and audio in it.
        .testTarget(
            name: "OutputsTests",
            dependencies: [
                "Outputs", "Encoder", "FLV", "Media", "RTMP", "RTMPAddress", "SRT", "Telemetry", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The endpoint's connection slots on embedded channels: who gives way when they are full.
        .testTarget(
            name: "StatusServerTests",
            dependencies: ["StatusServer", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")]),
        // The audio stage over scripted sources: start, the video's first picture, stop, a reload's swap.
        .testTarget(
            name: "AudioPathTests",
            dependencies: ["AudioPath", "AudioCapture", "Media", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        // Daemon and output logic apart from processes: reconnect schedule, dead-peer detection, one
        // output's failure among several, reload plans, sd_notify datagrams, watchdog, status line.
        .testTarget(
            name: "CamcastDaemonTests",
            dependencies: [
                "CamcastDaemon", "AudioPath", "Capture", "Config", "Encoder", "FLV", "Media", "Outputs", "RTMP", "RTMPAddress", "SRT",
                "TestSupport", "Telemetry", "StatusServer", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // Boots the vivid VM (scripts/vivid-vm) from the host and runs its in-VM suites there.
        .testTarget(
            name: "CaptureIntegrationTests",
            dependencies: ["Capture", "Media", "V4L2", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        // Boots the vivid VM with snd-aloop and runs its in-VM ALSA capture suite there.
        .testTarget(
            name: "AudioCaptureIntegrationTests",
            dependencies: ["AudioCapture", "Media", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        // Real servers and processes: nginx-rtmp, ffprobe/ffmpeg, the camcast binary.
        // Schedule: ScheduleCheckConfigTests evaluates a sun schedule as check-config should print it.
        // StatusServer: the endpoint's own limits and deadline, the figures HTTPAbuseTests holds it to.
        .testTarget(name: "IntegrationTests", dependencies: ["FLV", "Schedule", "SRT", "StatusServer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// scripts/test's ThreadSanitizer run (CAMCAST_TSAN_BUILD=1, in its own scratch directory) builds
// only the test targets whose tests it runs and the targets they import: `swift build` builds every
// target declared, and the others (the rest of the tests, the daemon, its HTTP server on SwiftNIO,
// the executable) were most of that build, for nothing.
if Context.environment["CAMCAST_TSAN_BUILD"] == "1" {
    var needed: Set = ["EncoderTests", "MediaTests", "OutputsTests", "AudioPathTests"]
    var unread = Array(needed)
    while let name = unread.popLast() {
        // A name that is no target here (a product named bare) has nothing to walk into.
        guard let target = package.targets.first(where: { $0.name == name }) else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _):
                if needed.insert(name).inserted { unread.append(name) }
            default:
                break  // a product of another package: built only if a target kept here uses it
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll()
    // And the packages none of those uses (SwiftNIO, swift-prometheus, service-lifecycle), which
    // SwiftPM would otherwise warn about on every run.
    var usedPackages: Set<String> = []
    for target in package.targets {
        for case .productItem(_, let name?, _, _) in target.dependencies { usedPackages.insert(name) }
    }
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
        let name = location.split(separator: "/").last.map { String($0.hasSuffix(".git") ? $0.dropLast(4) : $0) }
        return !usedPackages.contains(name ?? location)
    }
    // Media's `Lock` shows its hand-overs to TSan (see Lock.swift).
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("CAMCAST_TSAN_LOCK_EDGES")]
    }
}

// The lock-counting build (scripts/bench --sections locks; CAMCAST_LOCK_COUNTING=1, in its own
// scratch directory): every take of Media's `Lock` and `ConditionLock` adds to one process-wide
// counter (`LockTakes`) and the stop summary prints takes per encoded frame. A normal build compiles
// the counter out.
if Context.environment["CAMCAST_LOCK_COUNTING"] == "1" {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("CAMCAST_COUNT_LOCK_TAKES")]
    }
}
