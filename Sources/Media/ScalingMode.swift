/// How a frame whose aspect ratio differs from the encode size's is fitted into it (seed 002 warns
/// that scaling straight to the output size stretches the picture).
public enum ScalingMode: String, Sendable, Hashable, CaseIterable {
    /// Scale the whole frame to fit inside, centred, with black bars (letterbox or pillarbox).
    case fit
    /// Scale to cover the whole encode size, cutting off the centred excess.
    case fill
    /// Scale width and height independently to the encode size; distorts unless the ratios match.
    case stretch
}
