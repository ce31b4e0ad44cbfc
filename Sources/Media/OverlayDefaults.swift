/// The overlay's defaults, in one place for `Config` (what `overlay:` means when a key is left
/// out) and `Overlay` (what its settings start from).
public enum OverlayDefaults {
    /// DejaVu Sans Mono from Debian's fonts-dejavu-core: fixed-width digits, so a running clock
    /// does not jitter.
    public static let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
    /// What a clock shows while the system's clock is not set yet (never a 1970 date).
    public static let clockUnsetText = "--:--:--"
}
