import Media
import Testing

@Suite struct FrameRateTests {
    /// VIDIOC_G_PARM gives seconds per frame as the driver keeps them: vivid says 1000/25000 for
    /// PAL's 25 fps; a log line and a comparison must see 25.
    @Test(arguments: [
        (25000, 1000, 25, 1), (30, 1, 30, 1), (30000, 1001, 30000, 1001), (60000, 2002, 30000, 1001), (50, 2, 25, 1),
    ])
    func reducedIsInLowestTerms(_ numerator: Int, _ denominator: Int, _ expectedNumerator: Int, _ expectedDenominator: Int) {
        let reduced = FrameRate(numerator: numerator, denominator: denominator).reduced
        #expect(reduced == FrameRate(numerator: expectedNumerator, denominator: expectedDenominator))
        #expect(reduced.framesPerSecond == Double(numerator) / Double(denominator))
    }

    @Test func reducedLeavesAnInvalidRateAlone() {
        #expect(FrameRate(numerator: 0, denominator: 0).reduced == FrameRate(numerator: 0, denominator: 0))
        #expect(FrameRate(numerator: 0, denominator: 5).reduced == FrameRate(numerator: 0, denominator: 1))
    }
}
