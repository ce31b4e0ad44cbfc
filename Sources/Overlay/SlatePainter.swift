import Media

/// Paints a slate picture in any raw pixel format: a background (the operator's picture stretched
/// to the frame, or a flat colour) with centred text drawn by the overlay's own renderer.
public enum SlatePainter {
    /// Dark blue, the slate's colour when there is no picture.
    public static let background = OverlayColour(red: 24, green: 33, blue: 63)

    /// A frame's bytes of `format` with `planes` (`byteCount` in all), `width`×`height`.
    public static func paint(
        _ slate: SlateSettings, picture: RGBPicture?, width: Int, height: Int, format: PixelFormat, planes: [VideoPlane],
        byteCount: Int
    ) throws(OverlayError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let frame = VideoFrame(
            width: width, height: height, pixelFormat: format, planes: planes, bytes: [], timestamp: .now(), sequence: 0)
        let backdrop = TextLayer(picture: picture, width: width, height: height, fill: background)
        let full = PlacedText(layer: backdrop, format: format, frameWidth: width, frameHeight: height)
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, let full,
                full.touchedRanges(planes: planes, byteCount: byteCount) != nil
            else { return }
            full.blend(into: base, planes: planes)
        }
        let lines = slate.text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard !lines.isEmpty else { return bytes }
        // Lines a twelfth of the picture high, stacked around the middle.
        let lineHeight = max(12, height / 12)
        let step = lineHeight * 3 / 2
        let top = (height - step * lines.count) / 2
        let items = lines.enumerated().map { index, line in
            OverlayItem(
                text: line.replacingOccurrences(of: "%", with: "%%"), position: .top, margin: max(0, top + index * step),
                height: lineHeight, colour: .white, contrast: .outline(.black))
        }
        let renderer = try OverlayRenderer(settings: OverlaySettings(items: items, fontPath: slate.fontPath))
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var saved = SavedBytes()
            _ = renderer.blend(into: base, byteCount: byteCount, frame: frame, wallSeconds: 0, saving: &saved)
        }
        return bytes
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
