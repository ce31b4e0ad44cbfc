/// The version `camcast_build_info{version}` and /status report; scripts/package names the .deb
/// after the same number.
public enum CamcastVersion {
    public static let current = "0.1.0"
}
