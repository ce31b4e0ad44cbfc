import Media
import Overlay
import V4L2

/// The operator's slate (`slate:` in the config): their text over their JPEG picture, stretched to
/// the stream's size, drawn by the Overlay stage's renderer. Painted once per layout and kept, so
/// a placeholder frame costs what the flat slate costs.
extension OfflineSlate {
    private struct Key: Hashable {
        var layout: V4L2FrameLayout
        var slate: SlateSettings
    }

    private static let painted = Lock<(key: Key, bytes: [UInt8])?>(nil)

    /// The slate's bytes for `layout`: the operator's if `slate` is set and can be drawn, else the
    /// flat dark blue one.
    static func bytes(for layout: V4L2FrameLayout, slate: SlateSettings?) -> [UInt8] {
        guard let slate, layout.pixelFormat != .mjpeg else { return bytes(for: layout) }
        let key = Key(layout: layout, slate: slate)
        if let cached = painted.withLock({ $0?.key == key ? $0?.bytes : nil }) { return cached }
        // Checked when the settings were made (a configuration error there); if the file went
        // away since, the flat slate still says the camera is gone.
        let picture: RGBPicture?
        if let path = slate.imagePath {
            guard case .success(let decoded) = SlateImage.load(path: path) else { return bytes(for: layout) }
            picture = decoded
        } else {
            picture = nil
        }
        guard
            let bytes = try? SlatePainter.paint(
                slate, picture: picture, width: layout.width, height: layout.height, format: layout.pixelFormat,
                planes: layout.planes, byteCount: layout.byteCount)
        else { return bytes(for: layout) }
        painted.withLock { $0 = (key, bytes) }
        return bytes
    }
}
