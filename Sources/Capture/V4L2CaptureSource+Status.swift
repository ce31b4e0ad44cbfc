extension V4L2CaptureSource {
    /// What stands in for the camera and why, for the status line an operator reads in
    /// `systemctl status` (the log has the detailed reason): "waiting for camera /dev/video0"
    /// while the device is not there (absent at start or unplugged since: one case), "camera
    /// failing" while it is there but unusable.
    public var placeholderReason: String? {
        switch state {
        case .placeholder(.gone): "waiting for camera \(settings.devicePath)"
        case .placeholder(.failing): "camera failing"
        case .live, .stopped: nil
        }
    }
}
