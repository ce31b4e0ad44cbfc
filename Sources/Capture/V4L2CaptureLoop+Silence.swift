import Logging
import Media

/// A device that is open but sends nothing: a stuck sensor, a capture card that lost its signal,
/// a reopened camera that has not started yet. After `bridgeAfterNanoseconds` of silence
/// placeholders go out on the frame clock, from the first slot the device missed (the frozen last
/// picture fills the half second waited, so the time line has no hole), and the stream never
/// stalls; after
/// `pollTimeoutSeconds` the silence is a fault and the device is closed and reopened, as when it
/// fails outright. A few late frames are a hiccup, not a reason to send anything.
extension V4L2CaptureLoop {
    /// Silence shorter than this is left alone: longer than any jitter a working camera shows,
    /// short enough that a server never sees the stream stall.
    static let bridgeAfterNanoseconds: UInt64 = 500_000_000

    /// When the silence becomes a fault.
    var silenceLimit: MonotonicTime {
        lastHeardFrom.adding(nanoseconds: UInt64(settings.pollTimeoutSeconds * 1e9))
    }

    /// When the next placeholder must go out if the device stays silent: at once on the frame clock
    /// while already bridging (or waiting for a reopened device's first frame), else once the
    /// silence is long enough to bridge.
    var nextBridgeSlot: MonotonicTime {
        if fault != nil || bridgedSlots > 0 { return nextPlaceholder }
        return lastHeardFrom.adding(nanoseconds: Self.bridgeAfterNanoseconds)
    }

    /// Poll timed out on an open device: a placeholder is due, or the silence became a fault.
    func handleSilence(on stream: V4L2Stream) {
        let now = MonotonicTime.now()
        if now >= silenceLimit {
            let why = stream.device.inputProblem() ?? "no frame for \(settings.pollTimeoutSeconds) s"
            enterFault(.failing(why))
            return
        }
        guard now >= nextBridgeSlot else { return }
        if fault == nil && bridgedSlots == 0 {
            // The frozen picture is the last live frame: copied once, its buffer back to the driver.
            keepLastGoodFrame(requeueingTo: stream)
            bridgedSlots += startPlaceholderClock(now: now)
            logger.debug("camera silent; bridging with placeholder frames", metadata: ["device": "\(settings.devicePath)"])
        }
        bridgedSlots += sendDuePlaceholder(now: now)
    }
}
