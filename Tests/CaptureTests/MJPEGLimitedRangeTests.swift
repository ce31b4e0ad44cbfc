@testable import Capture
import CYUV
import Testing

/// The one pass that turns a JPEG's full-range chroma into the encoder's NV12 (MJPEGDecoder+LimitedRange),
/// and the in-place luma pass, against references nobody here wrote or a formula written out.
@Suite struct MJPEGLimitedRangeTests {
    /// JFIF full range to BT.601 limited range, as the specs write it, rounded half away from zero.
    static func limitedLuma(_ value: Int) -> UInt8 { UInt8((16 + Double(value) * 219 / 255).rounded()) }
    static func limitedChroma(_ value: Int) -> UInt8 { UInt8((128 + Double(value - 128) * 224 / 255).rounded()) }

    @Test func fixedPointIsTheRoundedFormulaForEveryValue() {
        for value in 0...255 {
            #expect(MJPEGDecoder.limitedLuma(UInt8(value)) == Self.limitedLuma(value), "Y \(value)")
            #expect(MJPEGDecoder.limitedChroma(UInt8(value)) == Self.limitedChroma(value), "C \(value)")
        }
        // The ends of the ranges.
        #expect(MJPEGDecoder.limitedLuma(0) == 16 && MJPEGDecoder.limitedLuma(255) == 235)
        #expect(MJPEGDecoder.limitedChroma(0) == 16 && MJPEGDecoder.limitedChroma(128) == 128 && MJPEGDecoder.limitedChroma(255) == 240)
    }

    @Test func lumaPassConvertsEveryByte() {
        var plane = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let expected = plane.map { Self.limitedLuma(Int($0)) }
        plane.withUnsafeMutableBufferPointer { MJPEGDecoder.limitLuma($0.baseAddress!, count: $0.count) }
        #expect(plane == expected)
    }

    static func noise(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    /// 4:2:2 → NV12: bit-exact with libyuv's I422ToNV21 (U and V passed swapped, so its V/U output
    /// is our U/V), whose vertical halving is the same rounded average, then the range formula.
    @Test(arguments: [(64, 32), (1920, 1080), (34, 6)])
    func chroma422MatchesLibyuvThenTheRangeFormula(width: Int, height: Int) throws {
        let chromaWidth = width / 2, chromaHeight = height / 2
        let u = Self.noise(chromaWidth * height, seed: 1), v = Self.noise(chromaWidth * height, seed: 2)
        let luma = [UInt8](repeating: 0, count: width * height)
        var reference = [UInt8](repeating: 0, count: width * chromaHeight)
        var referenceLuma = luma
        let status = I422ToNV21(
            luma, Int32(width), v, Int32(chromaWidth), u, Int32(chromaWidth),
            &referenceLuma, Int32(width), &reference, Int32(width), Int32(width), Int32(height))
        try #require(status == 0)
        let expected = reference.map { Self.limitedChroma(Int($0)) }

        var output = [UInt8](repeating: 0, count: width * chromaHeight)
        output.withUnsafeMutableBufferPointer { out in
            MJPEGDecoder.limitAndInterleaveChroma(
                u: u, v: v, sourceWidth: chromaWidth, sourceHeight: height, into: out.baseAddress!,
                width: chromaWidth, height: chromaHeight)
        }
        #expect(output == expected)
        // Not the old nearest-row resampling: rows are averaged.
        var nearestRow: [UInt8] = []
        for row in 0..<chromaHeight {
            for x in 0..<chromaWidth {
                let index: Int = 2 * row * chromaWidth + x
                nearestRow.append(Self.limitedChroma(Int(u[index])))
                nearestRow.append(Self.limitedChroma(Int(v[index])))
            }
        }
        #expect(output != nearestRow)
    }

    /// 4:2:0 chroma is already at its size: only range and interleaving.
    @Test func chroma420IsConvertedAndInterleavedOnly() {
        let chromaWidth = 40, chromaHeight = 10
        let u = Self.noise(chromaWidth * chromaHeight, seed: 3), v = Self.noise(chromaWidth * chromaHeight, seed: 4)
        var output = [UInt8](repeating: 0, count: 2 * chromaWidth * chromaHeight)
        output.withUnsafeMutableBufferPointer { out in
            MJPEGDecoder.limitAndInterleaveChroma(
                u: u, v: v, sourceWidth: chromaWidth, sourceHeight: chromaHeight, into: out.baseAddress!,
                width: chromaWidth, height: chromaHeight)
        }
        let expected: [UInt8] = zip(u, v).flatMap { pair -> [UInt8] in [Self.limitedChroma(Int(pair.0)), Self.limitedChroma(Int(pair.1))] }
        #expect(output == expected)
    }
}
