import Foundation

extension PyAV {
    /// What FFmpeg 8 (through PyAV) made of a video stream: every packet demuxed, every frame
    /// decoded, and every error FFmpeg logged or raised on the way.
    public struct DecodedVideo: Sendable, Decodable {
        public struct Packet: Sendable, Decodable {
            /// Milliseconds (nil where the container has no timestamps, as in a raw .h265).
            public var pts: Int?
            public var dts: Int?
            public var size: Int
            public var isKeyframe: Bool
        }

        public struct Frame: Sendable, Decodable {
            public var pts: Int?
            public var isKeyframe: Bool
            /// "I", "P", "B".
            public var pictureType: String
            /// The decoded picture's size (it changes with a new decoder configuration).
            public var width: Int
            public var height: Int
        }

        /// FFmpeg's decoder name: "hevc", "h264".
        public var codec: String
        public var width: Int
        public var height: Int
        /// The stream's extradata as the demuxer found it: for an FLV `hvc1` stream, the
        /// HEVCDecoderConfigurationRecord of its SequenceStart tag.
        public var extradata: [UInt8]
        public var packets: [Packet]
        public var frames: [Frame]
        /// Messages FFmpeg logged at error level or worse, and any exception PyAV raised.
        public var errors: [String]
        /// How a one-shot RTMP server's input ended: FFmpeg reports the publisher's leaving as
        /// EIO, the end of that stream (nil for files, which end without an error).
        public var endOfStream: String?
    }

    /// Demuxes and decodes the first video stream of `url` (a file, or `rtmp://…` with
    /// `options: ["listen": "1"]` to be a one-shot server that waits for a publisher).
    public static func decodeVideo(_ url: String, options: [String: String] = [:], timeout: Double = 300) throws -> DecodedVideo {
        let output = try run(decodeScript, [url, try jsonString(options)], timeout: timeout)
        return try parseDecodedVideo(output)
    }

    /// The same without waiting, for a server a test publishes to: wait for the process, then
    /// `parseDecodedVideo(result.stdout)`.
    public static func startDecodingVideo(_ url: String, options: [String: String] = [:]) throws -> RunningProcess {
        try start(decodeScript, [url, try jsonString(options)])
    }

    public static func parseDecodedVideo(_ output: String) throws -> DecodedVideo {
        do {
            return try JSONDecoder().decode(DecodedVideo.self, from: Data(output.utf8))
        } catch {
            throw HarnessError("PyAV decode printed no result (\(error)): \(output.prefix(500))")
        }
    }

    private static func jsonString(_ options: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Python: argv[1] the URL, argv[2] the options as JSON; prints one JSON object. FFmpeg's log
    /// is captured at error level from every thread (a frame-threaded decoder logs from its
    /// workers), so a decoder's complaint that does not raise still counts.
    static let decodeScript = #"""
        import json, sys
        import av, av.logging
        from av.video.frame import PictureType

        def ms(value, time_base):
            return None if value is None else int(round(float(value * time_base) * 1000))

        url, options = sys.argv[1], json.loads(sys.argv[2])
        result = {"codec": "", "width": 0, "height": 0, "extradata": [], "packets": [], "frames": [], "errors": [], "endOfStream": None}
        av.logging.set_level(av.logging.ERROR)
        with av.logging.Capture(local=False) as logs:
            try:
                with av.open(url, options=options) as container:
                    stream = container.streams.video[0]
                    context = stream.codec_context
                    result["codec"] = context.name
                    result["width"], result["height"] = context.width, context.height
                    result["extradata"] = list(context.extradata or b"")
                    def record(frames):
                        for frame in frames:
                            result["frames"].append({
                                "pts": ms(frame.pts, frame.time_base), "isKeyframe": bool(frame.key_frame),
                                "pictureType": PictureType(frame.pict_type).name,
                                "width": frame.width, "height": frame.height})
                    try:
                        for packet in container.demux(stream):
                            if packet.size:
                                result["packets"].append({
                                    "pts": ms(packet.pts, packet.time_base), "dts": ms(packet.dts, packet.time_base),
                                    "size": packet.size, "isKeyframe": bool(packet.is_keyframe)})
                            record(packet.decode())
                    except av.error.OSError as error:
                        # A one-shot RTMP server's input ends with EIO when the publisher closes
                        # the connection: the end of the stream, not a fault. Drain the decoder,
                        # which the demuxer's own end would have done.
                        if options.get("listen") != "1" or error.errno != 5:
                            raise
                        result["endOfStream"] = str(error)
                        record(context.decode(None))
                    # An E-RTMP stream's extradata may arrive with its first packet.
                    result["extradata"] = list(context.extradata or b"") or result["extradata"]
            except Exception as error:
                result["errors"].append(f"{type(error).__name__}: {error}")
        result["errors"] += [f"{name}: {message.strip()}" for level, name, message in logs if level <= av.logging.ERROR]
        print(json.dumps(result))
        """#
}
