import Media
import V4L2

/// Picks the pixel format to ask a device for, from what it offers. Pure, so the policy is tested
/// without a device.
enum V4L2FormatChooser {
    /// "auto" order: what x264 takes as is (NV12, I420), then packed 4:2:2 that libyuv converts
    /// cheaply, then MJPEG, which costs a JPEG decode per frame.
    static let autoPreference: [PixelFormat] = [.nv12, .i420, .yuyv, .uyvy, .mjpeg]

    enum Failure: Error, Equatable {
        /// The requested format is not offered; carries the FourCCs that are.
        case notOffered(requested: PixelFormat, offered: [String])
        /// Nothing offered is a format Camcast takes.
        case nothingUsable(offered: [String])
    }

    /// The format to request: `requested` if offered; for auto, the first preferred format that
    /// offers `size` exactly, else the first preferred one at all (the driver picks the nearest
    /// size), else any other format Camcast takes, in the driver's order.
    static func choose(requested: PixelFormat?, size: VideoSize, offered: [V4L2FormatInfo]) -> Result<PixelFormat, Failure> {
        let usable: [(format: PixelFormat, info: V4L2FormatInfo)] = offered.compactMap { info in
            Self.pixelFormat(fourCC: info.fourCC).map { ($0, info) }
        }
        if let requested {
            guard usable.contains(where: { $0.format == requested }) else {
                return .failure(.notOffered(requested: requested, offered: offered.map(\.fourCC)))
            }
            return .success(requested)
        }
        func offersSize(_ info: V4L2FormatInfo) -> Bool {
            // A driver that cannot enumerate sizes gets the benefit of the doubt.
            info.sizes.isEmpty || info.sizes.contains { $0.contains(size) }
        }
        let preferred = autoPreference.compactMap { format in usable.first { $0.format == format } }
        let others = usable.filter { !autoPreference.contains($0.format) }
        for group in [preferred, others] {
            if let exact = group.first(where: { offersSize($0.info) }) { return .success(exact.format) }
            if let any = group.first { return .success(any.format) }
        }
        return .failure(.nothingUsable(offered: offered.map(\.fourCC)))
    }

    private static func pixelFormat(fourCC text: String) -> PixelFormat? {
        text == "JPEG" ? .mjpeg : PixelFormat(rawValue: text)
    }
}
