import Synchronization

/// Keyframe requests as a message: any thread leaves one (an output's queue that overflowed, a
/// new output, a reconnect) and the encoding thread takes it before its next encode. One atomic
/// word, no lock: a request never waits for a picture being encoded, and is never a call back
/// into the encoder from inside another stage's lock.
///
/// The word holds the input index of the frame the next encode will be (as the session counts
/// them: frames it accepted) and whether a request waits, so a request can name the frame it
/// will land on.
struct KeyframeRequests: ~Copyable {
    /// `index << 1 | requested`.
    private let word = Atomic<Int64>(0)

    /// Leaves a request; returns the index of the frame it will land on (the next the session accepts).
    func request() -> Int64 {
        var current = word.load(ordering: .relaxed)
        while true {
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: current | 1, ordering: .acquiringAndReleasing)
            if exchanged { return original >> 1 }
            current = original
        }
    }

    /// The encoding thread, before encoding frame `index`: whether a request waits (it is taken).
    /// Requests made from now on go to frame `index + 1`.
    func take(forFrame index: Int64) -> Bool {
        word.exchange((index + 1) << 1, ordering: .acquiringAndReleasing) & 1 == 1
    }

    /// Frame `index` was not accepted after all (the encode threw): the next frame is `index`
    /// again, and a request it took waits for it.
    func giveBack(_ taken: Bool, forFrame index: Int64) {
        var current = word.load(ordering: .relaxed)
        while true {
            let desired = index << 1 | (taken ? 1 : current & 1)
            let (exchanged, original) = word.compareExchange(expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }
}
