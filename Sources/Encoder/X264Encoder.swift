internal import CX264
import Logging

/// The one owner of an `x264_t` handle and the parameters it was opened with.
///
/// Not thread-safe and not Sendable: `EncoderSession` keeps it inside its Mutex, so only one
/// thread touches the handle at a time.
final class X264Encoder {
    /// What one `x264_encoder_encode` call produced.
    struct Output {
        var nalUnits: [NALUnit]
        var isKeyframe: Bool
        var pts: Int64
        var dts: Int64
    }

    private let handle: OpaquePointer
    /// Kept so `reconfigure` can change one field and hand the rest back unchanged, as x264's
    /// reconfig expects a full parameter set.
    private var parameters: x264_param_t
    /// Must outlive the handle: x264 keeps `p_log_private` pointing at it.
    private let logSink: UnsafeMutablePointer<cx264_log_sink>
    private let logBridge: Unmanaged<X264LogBridge>
    let settings: EncoderSettings
    /// The picture the last send produced, until the session receives it (see +Backend).
    var slot = OnePictureSlot()

    init(settings: EncoderSettings, logger: Logger) throws(EncoderError) {
        var parameters = try Self.parameters(for: settings)
        let bridge = X264LogBridge(logger: logger)
        let retainedBridge = Unmanaged.passRetained(bridge)
        let sink = UnsafeMutablePointer<cx264_log_sink>.allocate(capacity: 1)
        sink.initialize(to: cx264_log_sink(callback: X264LogBridge.callback, context: retainedBridge.toOpaque()))
        cx264_param_set_log_sink(&parameters, sink, bridge.x264LogLevel)

        guard let handle = cx264_encoder_open(&parameters) else {
            sink.deallocate()
            retainedBridge.release()
            throw .openFailed(
                "x264_encoder_open rejected \(settings.size) \(settings.profile.rawValue) preset \(settings.preset); see the x264 error logged before"
            )
        }
        self.handle = handle
        self.parameters = parameters
        self.logSink = sink
        self.logBridge = retainedBridge
        self.settings = settings
    }

    deinit {
        x264_encoder_close(handle)
        logSink.deallocate()
        logBridge.release()
    }

    /// The SPS and PPS the stream will use (`x264_encoder_headers`).
    func headers() throws(EncoderError) -> H264ParameterSets {
        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        let status = x264_encoder_headers(handle, &nals, &count)
        guard status >= 0, let nals else { throw .openFailed("x264_encoder_headers failed with status \(status)") }
        let units = try Self.copy(nals: nals, count: count)
        guard let sps = units.first(where: { $0.type == .sps }), let pps = units.first(where: { $0.type == .pps }) else {
            throw .openFailed("x264_encoder_headers returned no SPS/PPS")
        }
        return H264ParameterSets(sps: sps.bytes, pps: pps.bytes)
    }

    /// Encodes `image` (nil drains a delayed frame) with the given PTS in milliseconds.
    /// Returns nil when x264 is holding the picture back (lookahead, B-frames).
    func encode(_ image: X264InputImage?, pts: Int64, forceIDR: Bool) throws(EncoderError) -> Output? {
        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        var output = x264_picture_t()
        let status: Int32
        if let image {
            var input = x264_picture_t()
            x264_picture_init(&input)
            input.i_pts = pts
            input.i_type = forceIDR ? X264_TYPE_IDR : X264_TYPE_AUTO
            Self.fill(&input.img, from: image)
            status = x264_encoder_encode(handle, &nals, &count, &input, &output)
        } else {
            status = x264_encoder_encode(handle, &nals, &count, nil, &output)
        }
        guard status >= 0 else { throw .encodeFailed(status: Int(status)) }
        guard status > 0, let nals, count > 0 else { return nil }
        return Output(
            nalUnits: try Self.copy(nals: nals, count: count),
            isKeyframe: output.b_keyframe != 0,
            pts: output.i_pts,
            dts: output.i_dts
        )
    }

    /// Frames x264 still holds; `flush` encodes nil until this is 0.
    var delayedFrames: Int {
        Int(x264_encoder_delayed_frames(handle))
    }

    /// Changes the average bitrate (and the VBV derived from it) from the next frame on.
    func reconfigure(bitrateKbps: Int) throws(EncoderError) {
        var changed = parameters
        Self.setRate(&changed, averageKbps: bitrateKbps, settings: settings)
        let status = x264_encoder_reconfig(handle, &changed)
        guard status >= 0 else { throw .reconfigureFailed(status: Int(status)) }
        parameters = changed
    }

    var bitrateKbps: Int { Int(parameters.rc.i_bitrate) }

    private static func fill(_ image: inout x264_image_t, from input: X264InputImage) {
        func plane(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
            // x264 only reads input planes (it copies them into its own frame); the C API is just
            // not const-correct.
            index < input.planes.count ? UnsafeMutablePointer(mutating: input.planes[index].base) : nil
        }
        func stride(_ index: Int) -> Int32 {
            index < input.planes.count ? Int32(input.planes[index].bytesPerRow) : 0
        }
        switch input.layout {
        case .i420:
            image.i_csp = X264_CSP_I420
            image.i_plane = 3
        case .nv12:
            image.i_csp = X264_CSP_NV12
            image.i_plane = 2
        }
        image.plane = (plane(0), plane(1), plane(2), nil)
        image.i_stride = (stride(0), stride(1), stride(2), 0)
    }

    /// Copies x264's NAL units out of its buffers (valid only until the next encode call), parsing
    /// each 4-byte length prefix rather than trusting the struct alone.
    private static func copy(nals: UnsafeMutablePointer<x264_nal_t>, count: Int32) throws(EncoderError) -> [NALUnit] {
        var units: [NALUnit] = []
        units.reserveCapacity(Int(count))
        for nal in UnsafeBufferPointer(start: nals, count: Int(count)) {
            guard let payload = nal.p_payload, nal.i_payload > 4 else {
                throw .malformedOutput("NAL of \(nal.i_payload) bytes")
            }
            let bytes = UnsafeBufferPointer(start: payload, count: Int(nal.i_payload))
            do {
                units.append(contentsOf: try AVCCNALUnitParser.parse(bytes))
            } catch {
                throw .malformedOutput(error.description)
            }
        }
        return units
    }
}
