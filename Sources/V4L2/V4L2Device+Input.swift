internal import CV4L2

/// The current input's signal status (`VIDIOC_G_INPUT` + `VIDIOC_ENUMINPUT`, `struct v4l2_input`
/// `status`), to say *why* a device went quiet: a capture card with no cable reports "no signal".
extension V4L2Device {
    /// A short reason if the input reports no power, signal or sync; nil if it looks fine or the
    /// driver does not say.
    public func inputProblem() -> String? {
        var current: Int32 = 0
        guard (try? ioctl("VIDIOC_G_INPUT", cv4l2_vidioc_g_input(), &current)) != nil else { return nil }
        var input = v4l2_input()
        input.index = UInt32(bitPattern: current)
        guard (try? ioctl("VIDIOC_ENUMINPUT", cv4l2_vidioc_enuminput(), &input)) != nil else { return nil }
        let problems: [(UInt32, String)] = [
            (UInt32(V4L2_IN_ST_NO_POWER), "no power"),
            (UInt32(V4L2_IN_ST_NO_SIGNAL), "no signal"),
            (UInt32(V4L2_IN_ST_NO_SYNC), "no sync"),
            (UInt32(V4L2_IN_ST_NO_H_LOCK), "no horizontal lock"),
        ]
        let found = problems.filter { input.status & $0.0 != 0 }.map(\.1)
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }
}
