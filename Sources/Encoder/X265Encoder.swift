import Media
#if canImport(Glibc)
import Glibc
#endif
internal import CX265
internal import CYUV
import Logging

/// The one owner of an `x265_encoder` handle, the parameters it was opened with and the two
/// pictures passed to it.
///
/// Not thread-safe and not Sendable: `EncoderSession` keeps it inside its Mutex, so only one
/// thread touches the handle at a time.
///
/// Output is length-prefixed (`bAnnexB = 0`), as with x264: each NAL's 4-byte length is checked
/// against x265's own size, so no start-code scan can mistake payload bytes for a boundary.
final class X265Encoder: EncoderBackend {
    /// The open encoder and what it was opened with; replaced as a whole by a bitrate change.
    private var handle: Handle
    private let input: UnsafeMutablePointer<x265_picture>
    private let output: UnsafeMutablePointer<x265_picture>
    /// x265 takes planar I420 only: NV12 input is converted here first.
    private var planar: I420Buffer?
    /// The settings in force (the bitrate follows `reconfigure`).
    private(set) var settings: EncoderSettings
    private let logger: Logger
    /// The picture the last send produced, until the session receives it.
    private var slot = OnePictureSlot()

    init(settings: EncoderSettings, logger: Logger) throws(EncoderError) {
        handle = try Handle(settings: settings, logger: logger)
        guard let input = x265_picture_alloc(), let output = x265_picture_alloc() else {
            throw .openFailed("x265_picture_alloc failed")
        }
        self.input = input
        self.output = output
        self.settings = settings
        self.logger = logger
    }

    deinit {
        x265_picture_free(input)
        x265_picture_free(output)
    }

    /// VPS, SPS and PPS (`x265_encoder_headers`; no SEI, as `bEmitInfoSEI` is off).
    func streamHeaders() throws(EncoderError) -> [[UInt8]] {
        var nals: UnsafeMutablePointer<x265_nal>?
        var count: UInt32 = 0
        let status = x265_encoder_headers(handle.encoder, &nals, &count)
        guard status >= 0, let nals else { throw .openFailed("x265_encoder_headers failed with status \(status)") }
        let units = try Self.copy(nals: nals, count: count)
        guard let sets = VideoCodec.h265.parameterSets(in: units) else {
            throw .openFailed("x265_encoder_headers returned no VPS/SPS/PPS")
        }
        return sets
    }

    /// One `x265_encoder_encode` call; the picture it returned (if any) waits in the slot for the
    /// next receive.
    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        try slot.send { () throws(EncoderError) in try encode(image, pts: pts, forceIDR: forceIDR) }
    }

    func sendEndOfStream() throws(EncoderError) {
        slot.end()
    }

    /// After the end, x265 hands back what it still holds one picture per call with no input.
    func receive() throws(EncoderError) -> EncoderReceiveStatus {
        try slot.receive { () throws(EncoderError) in try encode(nil) }
    }

    /// Hands x265 the image's planes (I420; NV12 is split first) for one encode call.
    private func encode(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderBackendOutput? {
        let planes = try planarPlanes(of: image)
        x265_picture_init(handle.parameters, input)
        input.pointee.pts = pts
        input.pointee.sliceType = forceIDR ? X265_TYPE_IDR : X265_TYPE_AUTO
        input.pointee.colorSpace = X265_CSP_I420
        input.pointee.bitDepth = 8
        // x265 only reads input planes (it copies them into its own frame); the C API is just
        // not const-correct.
        input.pointee.planes = (
            UnsafeMutableRawPointer(mutating: planes[0].base), UnsafeMutableRawPointer(mutating: planes[1].base),
            UnsafeMutableRawPointer(mutating: planes[2].base)
        )
        input.pointee.stride = (Int32(planes[0].bytesPerRow), Int32(planes[1].bytesPerRow), Int32(planes[2].bytesPerRow))
        return try encode(input)
    }

    /// Changes the average bitrate and the VBV that follows it by opening a new encoder with
    /// them; its first picture is an IDR (the session learns that from the picture itself and
    /// restarts its keyframe interval there).
    ///
    /// Not `x265_encoder_reconfig`: libx265 3.5 (Debian 12) accepts the new rate fields with
    /// status 0 and reports them back from `x265_encoder_parameters`, but its ABR/VBV rate
    /// control keeps the old rate. Measured here in C against the library alone, 640x360
    /// ultrafast+zerolatency, 2000 → 600 kbit/s at frame 150: 1996 kbit/s over the next 4 s, with
    /// or without VBV, tune or strict CBR. A new encoder costs one IDR and the frames x265 held
    /// (none with zerolatency), and the rate changes at once.
    func reconfigure(bitrateKbps: Int) throws(EncoderError) {
        // The same rate again (a reload that also changed other keys) is no reason for an IDR.
        guard bitrateKbps != settings.bitrateKbps else { return }
        var changed = settings
        changed.bitrateKbps = bitrateKbps
        if let held = try encode(nil), !held.units.isEmpty {
            // Only without zerolatency can x265 hold frames; they are dropped with the old encoder.
            logger.warning("x265 bitrate change dropped a held picture", metadata: ["pts": "\(held.pts)"])
        }
        handle = try Handle(settings: changed, logger: logger)
        settings = changed
    }

    private func encode(_ picture: UnsafeMutablePointer<x265_picture>?) throws(EncoderError) -> EncoderBackendOutput? {
        var nals: UnsafeMutablePointer<x265_nal>?
        var count: UInt32 = 0
        let status = x265_encoder_encode(handle.encoder, &nals, &count, picture, output)
        guard status >= 0 else { throw .encodeFailed(status: Int(status)) }
        guard status > 0, let nals, count > 0 else { return nil }
        let units = try Self.copy(nals: nals, count: count)
        // A keyframe is an IDR (the GOP is closed, so x265 never ends one with a CRA).
        let isKeyframe = units.contains { HEVCNALUnitType(unit: $0)?.isIDR == true }
        return EncoderBackendOutput(units: units, isKeyframe: isKeyframe, pts: output.pointee.pts, dts: output.pointee.dts)
    }

    /// The image's Y, U, V planes; NV12 is split into a scratch I420 picture first. In the daemon
    /// the conversion stage makes I420 for x265, so this split runs only for a frame converted just
    /// before a codec change (and for a caller that hands the session NV12 itself).
    private func planarPlanes(of image: X264InputImage) throws(EncoderError) -> [X264InputImage.Plane] {
        switch image.layout {
        case .i420:
            return image.planes
        case .nv12:
            let width = settings.size.width, height = settings.size.height
            let out = I420Buffer.reusing(planar, width: width, height: height)
            planar = out
            let p = image.planes
            let status = NV12ToI420(
                p[0].base, Int32(p[0].bytesPerRow), p[1].base, Int32(p[1].bytesPerRow),
                out.y, Int32(out.width), out.u, Int32(out.chromaWidth), out.v, Int32(out.chromaWidth),
                Int32(width), Int32(height))
            guard status == 0 else { throw .conversionFailed(function: "NV12ToI420", status: Int(status)) }
            return out.image.planes
        }
    }

    /// Copies x265's NAL units out of its buffers (valid only until the next encode call). Each
    /// payload is a 4-byte big-endian length and the NAL unit; the length must match x265's size.
    private static func copy(nals: UnsafeMutablePointer<x265_nal>, count: UInt32) throws(EncoderError) -> [[UInt8]] {
        var units: [[UInt8]] = []
        units.reserveCapacity(Int(count))
        for nal in UnsafeBufferPointer(start: nals, count: Int(count)) {
            guard let payload = nal.payload, nal.sizeBytes > 6 else {
                throw .malformedOutput("x265 NAL of \(nal.sizeBytes) bytes")
            }
            let bytes = UnsafeBufferPointer(start: payload, count: Int(nal.sizeBytes))
            let length = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            guard length == bytes.count - 4 else {
                throw .malformedOutput("x265 NAL length prefix \(length) for \(bytes.count - 4) bytes")
            }
            guard bytes[4] & 0x80 == 0 else { throw .malformedOutput("x265 NAL with the forbidden bit set") }
            units.append(Array(bytes[4...]))
        }
        return units
    }
}

extension X265Encoder {
    /// One `x265_encoder` with the parameters and pool string it was opened with; all three are
    /// freed together in `deinit`.
    final class Handle {
        let encoder: OpaquePointer
        /// Allocated by `x265_param_alloc` (the struct grows between x265 versions).
        let parameters: UnsafeMutablePointer<x265_param>
        /// `numaPools` points here; it must outlive the encoder.
        private let pools: UnsafeMutablePointer<CChar>?

        init(settings: EncoderSettings, logger: Logger) throws(EncoderError) {
            guard let parameters = x265_param_alloc() else { throw .openFailed("x265_param_alloc failed") }
            var pools: UnsafeMutablePointer<CChar>?
            do throws(EncoderError) {
                pools = try X265Encoder.configure(parameters, for: settings, logger: logger)
            } catch {
                x265_param_free(parameters)
                throw error
            }
            guard let encoder = cx265_encoder_open(parameters) else {
                x265_param_free(parameters)
                free(pools)
                throw .openFailed(
                    "x265_encoder_open rejected \(settings.size) preset \(settings.preset); see x265's message on standard error")
            }
            self.encoder = encoder
            self.parameters = parameters
            self.pools = pools
        }

        deinit {
            x265_encoder_close(encoder)
            x265_param_free(parameters)
            free(pools)
        }
    }
}
