/// Full range (JPEG/JFIF: 0–255) to the limited range (BT.601: luma 16–235, chroma 16–240) that
/// camera YUYV/NV12 and the encoder use: Y' = 16 + Y·219/255, C' = 128 + (C−128)·224/255, rounded.
///
/// As fixed-point arithmetic, not a lookup table: a table lookup is a gather the compiler cannot
/// vectorise, the arithmetic is (perf, 1080p MJPEG: the table pass over luma was 6.8 % of all
/// cycles). The constants give the rounded formula exactly for all 256 inputs (a test checks).
extension MJPEGDecoder {
    @inline(__always)
    static func limitedLuma(_ value: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(value) &* 56_281 &+ 1_081_700) &>> 16)
    }

    @inline(__always)
    static func limitedChroma(_ value: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(value) &* 57_567 &+ 1_052_800) &>> 16)
    }

    /// Luma to limited range in place: one pass.
    static func limitLuma(_ plane: UnsafeMutablePointer<UInt8>, count: Int) {
        for index in 0..<count { plane[index] = limitedLuma(plane[index]) }
    }

    /// One pass from the JPEG's chroma planes to the NV12 U/V plane (`width`×`height` pairs, rows
    /// of 2·`width` bytes): rows resampled to half height (4:2:2 and 4:4:4: the two source rows
    /// averaged, rounding up as libyuv does; 4:2:0 and 4:4:0: taken as they are), columns to half
    /// width (nearest sample; only 4:4:4, 4:4:0 and 4:1:1 need it), then limited range, interleaved.
    static func limitAndInterleaveChroma(
        u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, sourceWidth: Int, sourceHeight: Int,
        into uv: UnsafeMutablePointer<UInt8>, width: Int, height: Int
    ) {
        let averagesRows = sourceHeight == 2 * height
        for row in 0..<height {
            let first = averagesRows ? 2 * row : row * sourceHeight / height
            let second = averagesRows ? first + 1 : first
            let u0 = u + first * sourceWidth, u1 = u + second * sourceWidth
            let v0 = v + first * sourceWidth, v1 = v + second * sourceWidth
            let out = uv + row * 2 * width
            if sourceWidth == width {
                for x in 0..<width {
                    out[2 * x] = limitedChroma(average(u0[x], u1[x]))
                    out[2 * x + 1] = limitedChroma(average(v0[x], v1[x]))
                }
            } else {
                for x in 0..<width {
                    let column = x * sourceWidth / width
                    out[2 * x] = limitedChroma(average(u0[column], u1[column]))
                    out[2 * x + 1] = limitedChroma(average(v0[column], v1[column]))
                }
            }
        }
    }

    @inline(__always)
    private static func average(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b) &+ 1) &>> 1)
    }
}
