internal import CAVFormat

/// libavformat, which a recording needs and nothing else does: loaded on first use (see
/// CAVFormat's shim.h for why it is not linked), so a daemon without a recording output never
/// maps it and its 31 dependencies.
package enum RecordingLibrary {
    /// Why libavformat cannot be loaded, in the user's words; nil once it is loaded. `run` and
    /// `check-config` ask this for every recording output, so a box without the library hears it
    /// at start, not when the first segment would open.
    package static func loadProblem() -> String? {
        guard cavformat_load() != 0 else { return nil }
        return "recording needs libavformat (Debian package libavformat59) and it could not be loaded: "
            + String(cString: cavformat_load_error())
    }
}
