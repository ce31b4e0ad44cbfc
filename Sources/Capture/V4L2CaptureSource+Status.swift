extension V4L2CaptureSource {
    /// "camera gone" or "camera failing" while placeholders stand in for the device, for the
    /// status line an operator reads in `systemctl status` (the log has the detailed reason).
    public var placeholderReason: String? {
        switch state {
        case .placeholder(.gone): "camera gone"
        case .placeholder(.failing): "camera failing"
        case .live, .stopped: nil
        }
    }
}
