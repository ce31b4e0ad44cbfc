import Logging
import ServiceLifecycle

/// Sends systemd's WATCHDOG=1 at half the interval systemd asked for — but only while the
/// pipeline is healthy, so that a wedged daemon is killed and restarted instead of kept alive by a
/// timer that has nothing to do with the stream.
///
/// Healthy means the encoded-frame counter advanced since the previous tick. That also covers an
/// RTMP output that is reconnecting: capture and encoding go on meanwhile (frames queue, then drop
/// to the next keyframe), so the counter keeps moving. A stuck capture thread, a hung encoder or a
/// deadlock stop it. Between schedule windows with `idle: close` no frame is meant to flow: the
/// source rests (`IdleRest`), and a tick during the rest, or the first after it (the source has
/// just started and its first picture may not be encoded yet), counts as healthy.
struct Watchdog: Service {
    let notifier: SystemdNotifier
    let control: PipelineControl
    let logger: Logger

    /// Runs until the service group shuts down (or the task is cancelled); returns at once if
    /// systemd set no watchdog.
    func run() async {
        guard let interval = notifier.watchdogInterval else { return }
        await cancelWhenGracefulShutdown { await ping(every: interval / 2) }
    }

    private func ping(every period: Duration) async {
        var gate = WatchdogGate(framesEncoded: control.framesEncoded)
        let clock = ContinuousClock()
        var next = clock.now + period
        while !Task.isCancelled {
            do {
                try await Task.sleep(until: next, clock: clock)
            } catch {
                return
            }
            next += period
            let frames = control.framesEncoded
            let wasHealthy = gate.isHealthy
            if gate.tick(framesEncoded: frames, resting: control.sourceRests) {
                notifier.watchdog()
                if !wasHealthy { logger.notice("frames flow again; watchdog pings resumed") }
            } else if wasHealthy {
                logger.error("no frame encoded for \(period); watchdog pings withheld", metadata: ["frames": "\(frames)"])
            }
        }
    }
}

/// The watchdog's decision, apart from clocks and sockets: ping if and only if frames advanced,
/// or the source rests on purpose now or did at the previous tick.
struct WatchdogGate {
    private var lastFrames: Int
    private var wasResting = false
    private(set) var isHealthy = true

    init(framesEncoded: Int) {
        lastFrames = framesEncoded
    }

    /// Whether to ping at this tick.
    mutating func tick(framesEncoded: Int, resting: Bool = false) -> Bool {
        isHealthy = framesEncoded > lastFrames || resting || wasResting
        lastFrames = framesEncoded
        wasResting = resting
        return isHealthy
    }
}
