#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Keeps a file cut shorter while one of its frames is mapped (`FileMapping`) from killing the
/// daemon. Reading a mapped page past a file's new end raises SIGBUS; a clip replaced in place
/// (`cp new.y4m clip.y4m` truncates it first) does that to whichever frame the encoder is reading,
/// and with the encoder reading a frame a third of the time a replacement would crash one run in
/// three. The x264 CLI takes that risk; a daemon that plays a clip for months does not.
///
/// Each live mapping is registered here. The SIGBUS handler checks the faulting address against
/// them: inside one, it maps zero pages over that mapping (MAP_FIXED) and returns, so the read
/// retries and sees zeros, and the mapping is marked; the frame goes out partly blank and the
/// source says so. Any other SIGBUS goes to the handler that was there before (the Swift
/// runtime's backtracer) or to the default action, as if this guard did not exist.
enum MappedFileFaultGuard {
    /// Mappings live at once: one per playing file source; a source beyond that reads instead.
    static let capacity = 8

    /// Registers `length` bytes at `start` (page-aligned, as mmap returned it); nil when every
    /// slot is taken.
    static func register(start: UnsafeMutableRawPointer, length: Int) -> Int? {
        _ = installed
        let first = UInt(bitPattern: start)
        for slot in 0..<capacity {
            guard ranges.starts[slot].compareExchange(expected: 0, desired: first, ordering: .acquiringAndReleasing).exchanged
            else { continue }
            ranges.faulted[slot].store(false, ordering: .releasing)
            ranges.ends[slot].store(first + UInt(length), ordering: .releasing)
            return slot
        }
        return nil
    }

    /// Ends the registration; true if the file was cut shorter under the mapping (it then holds
    /// zero pages, which the caller unmaps like the file's).
    static func unregister(_ slot: Int) -> Bool {
        ranges.ends[slot].store(0, ordering: .releasing)
        let faulted = ranges.faulted[slot].load(ordering: .acquiring)
        ranges.starts[slot].store(0, ordering: .releasing)
        return faulted
    }

    /// Installed once, on the first registration: before it no mapping exists to guard.
    private static let installed: Void = {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handleBusError
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previousAction)
    }()
}

/// The registered ranges, read by the signal handler: atomics only, no lock, no allocation.
private final class MappedRanges: Sendable {
    let starts = InlineArray<8, Atomic<UInt>> { _ in Atomic(0) }
    let ends = InlineArray<8, Atomic<UInt>> { _ in Atomic(0) }
    let faulted = InlineArray<8, Atomic<Bool>> { _ in Atomic(false) }
}

private let ranges = MappedRanges()

/// What SIGBUS did before the guard: written once, before the handler is installed.
nonisolated(unsafe) private var previousAction = sigaction()

private func handleBusError(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
    for slot in 0..<MappedFileFaultGuard.capacity {
        let start = ranges.starts[slot].load(ordering: .acquiring)
        let end = ranges.ends[slot].load(ordering: .acquiring)
        guard start != 0, address >= start, address < end else { continue }
        // mmap is a plain system call here: safe in a handler in practice on Linux.
        let zeros = mmap(
            UnsafeMutableRawPointer(bitPattern: start), Int(end - start), PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
        if zeros != MAP_FAILED {
            ranges.faulted[slot].store(true, ordering: .releasing)
            return
        }
    }
    // Not a guarded mapping: whoever handled SIGBUS before, else the default action (the faulting
    // instruction runs again on return and the signal kills the process as it would have).
    if previousAction.sa_flags & SA_SIGINFO != 0, let previous = previousAction.__sigaction_handler.sa_sigaction {
        previous(signal, info, context)
        return
    }
    if let previous = previousAction.__sigaction_handler.sa_handler,
        unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_DFL, to: Int.self),
        unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
    {
        previous(signal)
        return
    }
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = SIG_DFL
    sigaction(SIGBUS, &fallback, nil)
}
