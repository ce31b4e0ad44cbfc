import FoundationEssentials  // JSONEncoder only: full Foundation brings ICU (30 MB) into the static binary

extension V4L2DeviceLister {
    /// The listing as JSON (`camcast devices --json`): an array of `V4L2DeviceInfo`, keys sorted so
    /// the output is stable for scripts and diffs.
    public static func json(_ devices: [V4L2DeviceInfo]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(devices), as: UTF8.self) + "\n"
    }
}
