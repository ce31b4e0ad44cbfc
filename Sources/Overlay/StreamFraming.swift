import Media

/// Where the stream's picture lies in a frame the encoder will scale: the overlay is drawn on the
/// frame before the encoder's scaler (FrameConverter, inside the encoder session), so an item given
/// in the stream's pixels (height, margin, corner) is drawn at the size and place that land on
/// those pixels once the frame is scaled. With no stream size, or a frame already at it, this is
/// the whole frame at scale 1.
struct StreamFraming: Equatable {
    /// The stream's whole picture in frame pixels; with `fit`'s bars it reaches outside the frame,
    /// with `fill` the frame reaches outside it.
    var x, y, width, height: Int
    /// Frame pixels per stream pixel.
    var scaleX, scaleY: Double

    init(frameWidth: Int, frameHeight: Int, stream: VideoSize?, scaling: ScalingMode) {
        guard let stream, stream.width != frameWidth || stream.height != frameHeight else {
            (x, y, width, height, scaleX, scaleY) = (0, 0, frameWidth, frameHeight, 1, 1)
            return
        }
        let geometry = ScaleGeometry(
            sourceWidth: frameWidth, sourceHeight: frameHeight, width: stream.width, height: stream.height, mode: scaling)
        let (source, destination) = (geometry.source, geometry.destination)
        scaleX = Double(source.width) / Double(destination.width)
        scaleY = Double(source.height) / Double(destination.height)
        x = Int((Double(source.x) - Double(destination.x) * scaleX).rounded())
        y = Int((Double(source.y) - Double(destination.y) * scaleY).rounded())
        width = Int((Double(stream.width) * scaleX).rounded())
        height = Int((Double(stream.height) * scaleY).rounded())
    }

    var isIdentity: Bool { scaleX == 1 && scaleY == 1 && x == 0 && y == 0 }

    /// `item` in frame pixels: its height and margins scaled (a line at least 8 pixels high).
    func scaled(_ item: OverlayItem) -> (item: OverlayItem, marginX: Int, marginY: Int) {
        var scaled = item
        scaled.height = max(8, Int((Double(item.height) * scaleY).rounded()))
        return (scaled, Int((Double(item.margin) * scaleX).rounded()), Int((Double(item.margin) * scaleY).rounded()))
    }
}
