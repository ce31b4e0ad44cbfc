import RTMP

/// Decides that a connection is dead from lack of progress: data is waiting for the peer, yet
/// the peer has acknowledged nothing new for `timeout`. RTMP's watchdog feeds it TCP's progress;
/// SRT's statistics thread feeds it libsrt's send buffer and acknowledged packets.
///
/// This catches what socket timeouts alone catch late or never: a black-holed link (no ACKs at
/// all; TCP_USER_TIMEOUT would also fire) and a peer that stops reading but whose kernel keeps
/// ACKing until its receive window is full — from then on nothing more is acknowledged, while
/// our own send buffer may take many seconds more to fill and block `send()`.
struct StallDetector {
    let timeoutNanoseconds: UInt64
    private var lastAcked: UInt64?
    private var lastProgress: UInt64 = 0
    /// The last sample found data waiting and no new acknowledgement.
    private var stuck = false

    init(timeoutNanoseconds: UInt64) {
        self.timeoutNanoseconds = timeoutNanoseconds
    }

    /// Forgets the connection watched so far (a new one starts).
    mutating func reset() {
        lastAcked = nil
        stuck = false
    }

    /// Since when (CLOCK_MONOTONIC ns) data has been waiting with nothing acknowledged, as of the
    /// last sample; nil while the connection progresses or is idle. A failover group counts its
    /// active leg down from here, not from the cut `timeout` later.
    var waitingSince: UInt64? {
        stuck ? lastProgress : nil
    }

    /// Takes one sample at `now` (CLOCK_MONOTONIC ns); true once the connection has stalled.
    mutating func observe(_ progress: TCPProgress, at now: UInt64) -> Bool {
        observe(pending: progress.hasPendingData, acknowledged: progress.bytesAcked, at: now)
    }

    /// The same from any transport: whether data waits for the peer, and a count of what the peer
    /// has acknowledged that grows with progress (TCP's bytes, SRT's packets: `SRTLinkReader`).
    mutating func observe(pending: Bool, acknowledged: UInt64, at now: UInt64) -> Bool {
        guard pending else {
            // Idle is not stalled; the clock starts at the first sample that finds data waiting.
            lastAcked = nil
            stuck = false
            return false
        }
        if lastAcked != acknowledged {
            lastAcked = acknowledged
            lastProgress = now
            stuck = false
            return false
        }
        stuck = true
        return now &- lastProgress >= timeoutNanoseconds
    }
}
