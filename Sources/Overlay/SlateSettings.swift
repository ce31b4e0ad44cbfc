import Media

/// What the stream shows while the camera is gone and no good frame of it is at hand: the
/// operator's words, over the operator's picture (scaled to the stream's size) or a flat colour.
public struct SlateSettings: Sendable, Hashable {
    /// Lines of text, centred; empty for none.
    public var text: String
    /// A JPEG file, decoded once (libturbojpeg, in Capture); nil for the flat colour.
    public var imagePath: String?
    public var fontPath: String

    public init(text: String, imagePath: String? = nil, fontPath: String = OverlayDefaults.fontPath) {
        self.text = text
        self.imagePath = imagePath
        self.fontPath = fontPath
    }
}
