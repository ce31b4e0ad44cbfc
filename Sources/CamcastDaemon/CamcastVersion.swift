/// The release this source tree is. scripts/package builds the .deb's version from it (with the
/// commit appended), so `camcast --version`, the first log line, `camcast_build_info{version}`,
/// /status and `dpkg -s camcast` agree.
public enum CamcastVersion {
    public static let string = "0.1.0"
}
