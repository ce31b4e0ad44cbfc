#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Media
import Synchronization

/// Writes encoded pictures to a raw `.h264` file: an H.264 Annex-B byte stream (ITU-T H.264
/// Annex B), every NAL unit behind a 00 00 00 01 start code, as the seeds' recorders do.
///
/// The file starts at the first keyframe (earlier pictures cannot be decoded), and every keyframe
/// carries SPS and PPS in front of its slices, so the file plays from any IDR. Writes stop after
/// `frameLimit` pictures. Safe to call from the encoder's output handler on any thread.
public final class AnnexBWriter: Sendable {
    public let path: String
    public let frameLimit: Int?
    private let state: Mutex<State>

    private struct State {
        /// -1 once closed.
        var descriptor: Int32
        var framesWritten = 0
        var startedAtKeyframe = false
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
        self.state = Mutex(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { _ = Glibc.close(state.descriptor) }
        }
    }

    /// Appends one picture. Returns false if it was not written: before the first keyframe, after
    /// the frame limit, or once closed.
    @discardableResult
    public func write(_ picture: EncodedPicture) throws(AnnexBWriterError) -> Bool {
        try state.withLock { (state) throws(AnnexBWriterError) -> Bool in
            guard state.descriptor >= 0 else { return false }
            if let frameLimit, state.framesWritten >= frameLimit { return false }
            guard state.startedAtKeyframe || picture.isKeyframe else { return false }
            try Self.writeAll(Self.bytes(for: picture), to: state.descriptor)
            state.startedAtKeyframe = true
            state.framesWritten += 1
            return true
        }
    }

    /// Appends one codec-neutral packet (H.264): its units with start codes, the decoder
    /// configuration's SPS and PPS in front of a keyframe. Same rules as `write(_: EncodedPicture)`.
    @discardableResult
    public func write(_ packet: MediaPacket) throws(AnnexBWriterError) -> Bool {
        try state.withLock { (state) throws(AnnexBWriterError) -> Bool in
            guard state.descriptor >= 0 else { return false }
            if let frameLimit, state.framesWritten >= frameLimit { return false }
            guard state.startedAtKeyframe || packet.isKeyframe else { return false }
            let units = (packet.isKeyframe ? packet.decoderConfiguration.parameterSets : []) + packet.units
            try Self.writeAll(Self.startCoded(units), to: state.descriptor)
            state.startedAtKeyframe = true
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

    /// The Annex-B bytes of one picture: its NAL units with 4-byte start codes, with the picture's
    /// SPS and PPS put in front of a keyframe that does not carry them itself (after any access
    /// unit delimiter, which must come first, H.264 §7.4.1.2.3).
    public static func bytes(for picture: EncodedPicture) -> [UInt8] {
        var units = picture.nalUnits.map(\.bytes)
        let types = Set(picture.nalUnits.map(\.type))
        if picture.isKeyframe && !(types.contains(.sps) && types.contains(.pps)) {
            let position = picture.nalUnits.prefix { $0.type == .aud }.count
            units.insert(contentsOf: [picture.parameterSets.sps, picture.parameterSets.pps], at: position)
        }
        return startCoded(units)
    }

    /// Each unit behind a 4-byte start code.
    static func startCoded(_ units: [[UInt8]]) -> [UInt8] {
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
