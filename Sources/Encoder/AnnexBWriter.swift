#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Media

/// Writes encoded packets to a raw `.h264` or `.h265` file: an Annex-B byte stream (ITU-T H.264
/// Annex B, H.265 Annex B), every NAL unit behind a 00 00 00 01 start code, as the seeds'
/// recorders do.
///
/// The file starts at the first keyframe (earlier pictures cannot be decoded), and every keyframe
/// carries the decoder configuration in front of its slices (SPS, PPS; for H.265 VPS, SPS, PPS,
/// also before any other IRAP picture), so the file plays from any of them. Writes stop after
/// `frameLimit` pictures. Safe to call from any thread (the `.h264` output writes from its own).
public final class AnnexBWriter: Sendable {
    public let path: String
    public let frameLimit: Int?
    private let state: Lock<State>

    private struct State {
        /// -1 once closed.
        var descriptor: Int32
        var framesWritten = 0
        /// Where the file starts: at the first keyframe, nothing before it.
        var gate = KeyframeGate()
    }

    /// Creates (or truncates) the file at `path`.
    public init(path: String, frameLimit: Int? = nil) throws(AnnexBWriterError) {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.run("open") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        } catch {
            throw .open(path: path, errno: error.errno)
        }
        self.path = path
        self.frameLimit = frameLimit
        self.state = Lock(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { _ = Glibc.close(state.descriptor) }
        }
    }

    /// Appends one codec-neutral video packet: its units with start codes, the decoder
    /// configuration's parameter sets in front of a keyframe (and of an H.265 IRAP picture). Returns false if it was not written:
    /// before the first keyframe, after the frame limit, or once closed.
    @discardableResult
    public func write(_ packet: MediaPacket) throws(AnnexBWriterError) -> Bool {
        try state.withLock { (state) throws(AnnexBWriterError) -> Bool in
            guard state.descriptor >= 0 else { return false }
            if let frameLimit, state.framesWritten >= frameLimit { return false }
            // The gate moves on only once the packet is written: a failed first write leaves
            // the file still waiting for a keyframe.
            var gate = state.gate
            guard gate.admit(packet) != .skip else { return false }
            let units = (Self.startsCodedVideoSequence(packet) ? packet.decoderConfiguration.parameterSets : []) + packet.units
            try Self.writeAll(Self.startCoded(units), to: state.descriptor)
            state.gate = gate
            state.framesWritten += 1
            return true
        }
    }

    /// Pictures written so far.
    public var framesWritten: Int {
        state.withLock { $0.framesWritten }
    }

    /// Whether the frame limit has been reached.
    public var isFull: Bool {
        guard let frameLimit else { return false }
        return framesWritten >= frameLimit
    }

    /// Closes the file; later writes are ignored. Idempotent.
    public func close() {
        state.withLock { state in
            if state.descriptor >= 0 { _ = Glibc.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    /// Whether the parameter sets go in front of `packet`: every keyframe; for H.265 also an IRAP
    /// picture (BLA/CRA, types 16…23) the encoder did not flag, e.g. a scene cut in an open GOP.
    static func startsCodedVideoSequence(_ packet: MediaPacket) -> Bool {
        if packet.isKeyframe { return true }
        guard packet.codec == .h265, let first = packet.units.first, let type = HEVCNALUnitType(unit: first) else { return false }
        return type.isIRAP
    }

    /// Each unit behind a 4-byte start code.
    package static func startCoded(_ units: [[UInt8]]) -> [UInt8] {
        let startCode: [UInt8] = [0, 0, 0, 1]
        var out: [UInt8] = []
        out.reserveCapacity(units.reduce(0) { $0 + 4 + $1.count })
        for unit in units {
            out.append(contentsOf: startCode)
            out.append(contentsOf: unit)
        }
        return out
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(AnnexBWriterError) {
        do {
            try SystemCall.writeAll(descriptor, bytes)
        } catch {
            throw .write(errno: error.errno)
        }
    }
}
