/// Why an SRT connection could not be made or was lost, in words, without the passphrase or the
/// stream id (libsrt's own texts name neither).
public struct SRTError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The host name did not resolve.
        case nameLookup
        /// Nothing answered the handshake within the connect timeout (no listener, a firewall).
        case unreachable
        /// The listener answered and refused: libsrt's reject reason (`srt_getrejectreason`).
        case rejected(reason: Int32)
        /// The listener refused the passphrase (SRT_REJ_BADSECRET).
        case wrongPassphrase
        /// One side has a passphrase and the other none (SRT_REJ_UNSECURE).
        case encryptionMismatch
        /// A connection that was up failed (the listener went away, the peer idle timeout).
        case lost
        /// The output's uplink cannot carry a connection now; `detail` says how in words
        /// ("interface wwan0 is absent"). Waited for on the reconnect schedule.
        case uplinkUnavailable
        /// The socket could not be made or set up (libsrt's words).
        case setup
        /// The output is stopping.
        case cancelled
    }

    public var kind: Kind
    /// libsrt's words (`srt_rejectreason_str`, `srt_getlasterror_str`) or the resolver's.
    public var detail: String

    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String {
        switch kind {
        case .nameLookup: "name lookup failed: \(detail)"
        case .unreachable: "no SRT listener answered: \(detail)"
        case .rejected(let reason): "the listener refused the connection: \(detail) (SRT reject reason \(reason))"
        case .wrongPassphrase: "the listener refused the passphrase (passphrase_file): \(detail)"
        case .encryptionMismatch:
            "the listener refused the connection: one side has a passphrase and the other has none or another (passphrase_file): \(detail)"
        case .lost: "connection lost: \(detail)"
        case .uplinkUnavailable: "\(detail); waiting for it"
        case .setup: "socket setup failed: \(detail)"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the listener talked and said no: retrying costs it work, so the waits grow as
    /// RTMP's do after a refused publish (`ReconnectSchedule`'s expensive class).
    public var isRefusal: Bool {
        switch kind {
        case .rejected, .wrongPassphrase, .encryptionMismatch: true
        default: false
        }
    }
}
