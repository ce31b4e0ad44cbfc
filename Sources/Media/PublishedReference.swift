import Synchronization

/// An object every frame reads and a rare event replaces (the encoder session, which only a codec
/// change swaps): a read is one atomic load, no lock, so the frame path takes none for it.
///
/// A replaced object is kept alive until this goes, not released at once: a reader may have loaded
/// its pointer just before the swap and take its own reference a moment later. Replace only
/// rarely (once per reload at most); each replacement keeps one object more.
public final class PublishedReference<Object: AnyObject & Sendable>: Sendable {
    private let current: Atomic<Unmanaged<Object>>
    /// Everything replaced so far, kept so that a reader's unretained load stays valid.
    private let retired = Lock<[Object]>([])

    public init(_ object: Object) {
        current = Atomic(Unmanaged.passRetained(object))
    }

    deinit {
        current.load(ordering: .acquiring).release()
    }

    public var value: Object {
        current.load(ordering: .acquiring).takeUnretainedValue()
    }

    public func replace(with object: Object) {
        let old = current.exchange(Unmanaged.passRetained(object), ordering: .acquiringAndReleasing)
        retired.withLock { $0.append(old.takeRetainedValue()) }
    }
}
