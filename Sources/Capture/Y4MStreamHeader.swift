import Media

/// The stream header of a YUV4MPEG2 (.y4m) file: `YUV4MPEG2` and space-separated tagged
/// parameters, ended by a newline.
///
/// Format: mjpegtools `yuv4mpeg.h` / https://wiki.multimedia.cx/index.php/YUV4MPEG2 —
/// `W`width, `H`height, `F`num:den frame rate, `I` interlacing, `A`num:den pixel aspect (0:0 =
/// unknown), `C` colour space (default 420jpeg), `X` free-form extensions. Each frame follows as
/// `FRAME` (plus optional parameters), a newline, and the planes Y, Cb, Cr, tightly packed.
public struct Y4MStreamHeader: Sendable, Hashable {
    public static let signature: [UInt8] = Array("YUV4MPEG2".utf8)

    public var width: Int
    public var height: Int
    public var frameRate: FrameRate
    public var interlacing: Y4MInterlacing?
    /// Pixel aspect ratio; nil when the header has no `A` (`A0:0` is "unknown" and kept as given).
    public var pixelAspect: PixelAspect?
    /// The `C` parameter as given; nil when absent, which means `420jpeg`.
    public var colourSpace: Y4MColourSpace?
    /// `X` parameters without their `X`, in order (ffmpeg writes `XYSCSS=420JPEG`).
    public var extensions: [String]

    public init(
        width: Int, height: Int, frameRate: FrameRate, interlacing: Y4MInterlacing? = nil,
        pixelAspect: PixelAspect? = nil, colourSpace: Y4MColourSpace? = nil,
        extensions: [String] = []
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.interlacing = interlacing
        self.colourSpace = colourSpace
        self.extensions = extensions
        self.pixelAspect = pixelAspect
    }

    /// The colour space in force: `C`, or 420jpeg when the header leaves it out.
    public var effectiveColourSpace: Y4MColourSpace { colourSpace ?? .c420jpeg }

    /// Bytes of picture data in each frame, after its FRAME line.
    public var frameByteCount: Int {
        let luma = width * height
        switch effectiveColourSpace {
        case .c420jpeg, .c420mpeg2, .c420paldv, .c420: return luma + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        case .c411: return luma + 2 * ((width + 3) / 4) * height
        case .c422: return luma + 2 * ((width + 1) / 2) * height
        case .c444: return 3 * luma
        case .c444alpha: return 4 * luma
        case .mono: return luma
        }
    }

    /// The header line, newline included, parameters in the order W H F I A C X.
    public var encoded: [UInt8] {
        var text = "YUV4MPEG2 W\(width) H\(height) F\(frameRate.numerator):\(frameRate.denominator)"
        if let interlacing { text += " I\(interlacing.rawValue)" }
        if let pixelAspect { text += " A\(pixelAspect.numerator):\(pixelAspect.denominator)" }
        if let colourSpace { text += " C\(colourSpace.rawValue)" }
        for item in extensions { text += " X\(item)" }
        return Array(text.utf8) + [0x0A]
    }

    /// Parses a header line without its newline. Unknown parameter letters are errors: the
    /// format defines no others, and guessing at picture layout would play garbage.
    public init(line: some Collection<UInt8>) throws(Y4MError) {
        let tokens = line.split(separator: 0x20, omittingEmptySubsequences: true)
        guard let magic = tokens.first, Array(magic) == Self.signature else { throw .notYUV4MPEG2 }
        var width: Int?, height: Int?, frameRate: FrameRate?
        self.init(width: 0, height: 0, frameRate: FrameRate(numerator: 0))
        for token in tokens.dropFirst() {
            let tag = Character(Unicode.Scalar(token.first!))
            let value = String(decoding: token.dropFirst(), as: UTF8.self)
            switch tag {
            case "W": width = try Self.dimension(value, tag)
            case "H": height = try Self.dimension(value, tag)
            case "F":
                guard let (numerator, denominator) = Self.ratio(value), numerator > 0, denominator > 0 else {
                    throw .invalidParameter(tag, value: value)
                }
                frameRate = FrameRate(numerator: numerator, denominator: denominator)
            case "I":
                guard value.count == 1, let mode = Y4MInterlacing(rawValue: value.first!) else {
                    throw .invalidParameter(tag, value: value)
                }
                interlacing = mode
            case "A":
                guard let (numerator, denominator) = Self.ratio(value) else { throw .invalidParameter(tag, value: value) }
                pixelAspect = PixelAspect(numerator: numerator, denominator: denominator)
            case "C":
                guard let space = Y4MColourSpace(rawValue: value) else { throw .unsupportedColourSpace(value) }
                colourSpace = space
            case "X":
                extensions.append(value)
            default:
                throw .invalidParameter(tag, value: value)
            }
        }
        guard let width else { throw .missingParameter("W") }
        guard let height else { throw .missingParameter("H") }
        guard let frameRate else { throw .missingParameter("F") }
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    /// A positive size no larger than any picture x264 can take; digits only.
    private static func dimension(_ text: String, _ tag: Character) throws(Y4MError) -> Int {
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text), (1...16384).contains(value) else {
            throw .invalidParameter(tag, value: text)
        }
        return value
    }

    /// `num:den`, both non-negative decimal integers.
    private static func ratio(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let numerator = Int(parts[0]), let denominator = Int(parts[1])
        else { return nil }
        return (numerator, denominator)
    }

    /// The `A` parameter: width:height of one pixel.
    public struct PixelAspect: Sendable, Hashable {
        public var numerator: Int
        public var denominator: Int

        public init(numerator: Int, denominator: Int) {
            self.numerator = numerator
            self.denominator = denominator
        }
    }
}
