import Media

/// One item's text, laid out for one pixel format and frame size, at its place in the frame: what
/// the renderer keeps between frames and rebuilds only when the text, the format or the size
/// changes.
struct PlacedText {
    let text: String
    let format: PixelFormat
    let frameWidth: Int
    let frameHeight: Int
    /// Top-left pixel of the layer in the frame (even, so chroma samples line up).
    let x: Int
    let y: Int
    let width: Int
    let height: Int
    let components: [ComponentLayer]

    /// A layer covering the whole frame from its top-left corner (the slate's background).
    init?(layer: TextLayer, format: PixelFormat, frameWidth: Int, frameHeight: Int) {
        guard let formatComponents = PixelComponent.of(format) else { return nil }
        text = ""
        self.format = format
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        (x, y, width, height) = (0, 0, layer.width, layer.height)
        components = formatComponents.map { ComponentLayer(layer, component: $0) }
    }

    /// `item` placed against the frame's edges (the frame is the stream's picture: the conversion
    /// stage scaled it before the overlay), and kept inside it.
    init?(
        text: String, item: OverlayItem, font: FontFace, format: PixelFormat, frameWidth: Int, frameHeight: Int
    ) {
        guard let formatComponents = PixelComponent.of(format) else { return nil }
        let layer = TextLayer(text: text, style: item, font: font)
        self.text = text
        self.format = format
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        width = layer.width
        height = layer.height
        let (spareX, spareY) = (frameWidth - layer.width, frameHeight - layer.height)
        let margin = item.margin
        let left: Int
        let top: Int
        switch item.position {
        case .topLeft, .bottomLeft: left = margin
        case .top, .centre, .bottom: left = spareX / 2
        case .topRight, .bottomRight: left = spareX - margin
        }
        switch item.position {
        case .topLeft, .top, .topRight: top = margin
        case .centre: top = spareY / 2
        case .bottomLeft, .bottom, .bottomRight: top = spareY - margin
        }
        // Inside the frame; text wider than the picture starts at its left edge and is cut on the right.
        x = max(0, min(left, frameWidth - layer.width)) & ~1
        y = max(0, min(top, frameHeight - layer.height)) & ~1
        components = formatComponents.map { ComponentLayer(layer, component: $0) }
    }

    func fits(format: PixelFormat, width: Int, height: Int) -> Bool {
        self.format == format && frameWidth == width && frameHeight == height
    }

    /// The byte ranges blending touches, one per row per component, checked against the frame's
    /// buffer: nil if a plane would reach outside it (a malformed frame: the encoder reports it).
    func touchedRanges(planes: [VideoPlane], byteCount: Int) -> [Range<Int>]? {
        var ranges: [Range<Int>] = []
        return appendTouchedRanges(planes: planes, byteCount: byteCount, to: &ranges) ? ranges : nil
    }

    /// `touchedRanges` appended to `ranges` (a buffer kept between frames); false if a plane would
    /// reach outside the buffer.
    func appendTouchedRanges(planes: [VideoPlane], byteCount: Int, to ranges: inout [Range<Int>]) -> Bool {
        for layer in components {
            let c = layer.component
            guard c.plane < planes.count else { return false }
            let plane = planes[c.plane]
            let (sx, sy) = (x >> c.xShift, y >> c.yShift)
            let columns = min(layer.width, ((frameWidth + (1 << c.xShift) - 1) >> c.xShift) - sx)
            let rows = min(layer.height, ((frameHeight + (1 << c.yShift) - 1) >> c.yShift) - sy)
            guard columns > 0, rows > 0 else { continue }
            for row in 0..<rows {
                let span = layer.span(row: row, columns: columns)
                guard !span.isEmpty else { continue }
                let start = plane.offset + (sy + row) * plane.bytesPerRow + (sx + span.lowerBound) * c.step + c.offset
                let end = start + (span.count - 1) * c.step + 1
                guard start >= 0, end <= byteCount else { return false }
                ranges.append(start..<end)
            }
        }
        return true
    }

    /// Blends every component into the frame's bytes at `base`.
    func blend(into base: UnsafeMutablePointer<UInt8>, planes: [VideoPlane]) {
        for layer in components {
            let c = layer.component
            let plane = planes[c.plane]
            layer.blend(
                into: base + plane.offset, bytesPerRow: plane.bytesPerRow, x: x >> c.xShift, y: y >> c.yShift,
                limit: ((frameWidth + (1 << c.xShift) - 1) >> c.xShift, (frameHeight + (1 << c.yShift) - 1) >> c.yShift))
        }
    }
}
