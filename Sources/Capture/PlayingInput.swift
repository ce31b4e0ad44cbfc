import Logging
import Media

/// The file or pipe a file source's thread is reading now (`Y4MFileSource`, `CameraReplaySource`):
/// held so that `stop` can interrupt a read waiting on a quiet pipe, with its stalls logged.
final class PlayingInput: Sendable {
    private let current = Lock<Y4MFileInput?>(nil)

    /// Readies `file` to be read by the playing thread: interruptible, stalls logged as `name`.
    func watch(_ file: Y4MFileInput, name: String, logger: Logger?) {
        file.resume()
        file.reportStalls { stalled in
            if stalled {
                logger?.warning("input stalled: no data", metadata: ["source": "\(name)", "seconds": "\(Y4MFileInput.stallSeconds)"])
            } else {
                logger?.notice("input resumed", metadata: ["source": "\(name)"])
            }
        }
        current.withLock { $0 = file }
    }

    /// Wakes a read blocked on the current input (before the playing thread is joined).
    func interrupt() {
        current.withLock { $0 }?.interrupt()
    }

    /// The thread has ended: nothing is being read.
    func clear() {
        current.withLock { $0 = nil }
    }
}
