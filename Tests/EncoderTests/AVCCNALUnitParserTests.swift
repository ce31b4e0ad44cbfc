import Media
import Encoder
import Testing

@Suite struct AVCCNALUnitParserTests {
    /// Two NAL units in the ISO/IEC 14496-15 §5.3.4.2.1 sample format with 4-byte lengths.
    static let golden: [UInt8] = [
        0x00, 0x00, 0x00, 0x04,  // NALUnitLength = 4
        0x67, 0x42, 0xC0, 0x1E,  // SPS: header (nal_ref_idc 3, type 7), profile_idc 66, constraints, level 30
        0x00, 0x00, 0x00, 0x03,  // NALUnitLength = 3
        0x65, 0x88, 0x84,  // IDR slice: header (nal_ref_idc 3, type 5), slice data
    ]

    static let units = [
        try! NALUnit(bytes: [0x67, 0x42, 0xC0, 0x1E]),
        try! NALUnit(bytes: [0x65, 0x88, 0x84]),
    ]

    @Test func parsesGoldenBytes() throws {
        let units = try AVCCNALUnitParser.parse(Self.golden)
        #expect(units.map(\.type) == [.sps, .idr])
        #expect(units == Self.units)
        #expect(units.map(\.referenceIDC) == [3, 3])
    }

    @Test func serializeGivesGoldenBytesAndRoundTrips() throws {
        #expect(AVCCNALUnitParser.serialize(Self.units) == Self.golden)
        #expect(try AVCCNALUnitParser.parse(AVCCNALUnitParser.serialize(Self.units)) == Self.units)
    }

    @Test(arguments: [1, 2, 4])
    func roundTripsEveryLengthSize(_ lengthSize: Int) throws {
        let bytes = AVCCNALUnitParser.serialize(Self.units, lengthSize: lengthSize)
        #expect(bytes.count == Self.units.reduce(0) { $0 + lengthSize + $1.bytes.count })
        #expect(try AVCCNALUnitParser.parse(bytes, lengthSize: lengthSize) == Self.units)
    }

    @Test func dripFeedOneByteAtATime() throws {
        var parser = AVCCNALUnitParser()
        var units: [NALUnit] = []
        var completedAt: [Int] = []
        for (index, byte) in Self.golden.enumerated() {
            parser.append([byte])
            while let unit = try parser.next() {
                units.append(unit)
                completedAt.append(index)
            }
        }
        #expect(units == Self.units)
        // Each unit is returned on exactly its last byte, not earlier and not later.
        #expect(completedAt == [7, 14])
        try parser.finish()
    }

    @Test func truncatedInputThrowsWithTheShortfall() {
        #expect(throws: NALUnitError.truncated(needed: 7, available: 6)) {
            try AVCCNALUnitParser.parse(Self.golden.dropLast())
        }
        #expect(throws: NALUnitError.truncated(needed: 4, available: 2)) {
            try AVCCNALUnitParser.parse(Self.golden.prefix(10))
        }
    }

    @Test func zeroLengthThrows() {
        #expect(throws: NALUnitError.zeroLength) { try AVCCNALUnitParser.parse([0, 0, 0, 0, 0x65]) }
    }

    @Test func nalHeaderIsChecked() {
        #expect(throws: NALUnitError.forbiddenBitSet(header: 0xE5)) { try NALUnit(bytes: [0xE5, 0x00]) }
        #expect(throws: NALUnitError.unknownType(24)) { try NALUnit(bytes: [0x18]) }
        #expect(throws: NALUnitError.unknownType(0)) { try NALUnit(bytes: [0x00]) }
        #expect(throws: NALUnitError.empty) { try NALUnit(bytes: []) }
    }

    @Test(arguments: NALUnitType.allCases)
    func everyTypeIsReadFromTheLowFiveBits(_ type: NALUnitType) throws {
        // nal_ref_idc 2 in bits 6-5 must not leak into the type.
        let unit = try NALUnit(bytes: [0x40 | type.rawValue, 0xAA])
        #expect(unit.type == type)
        #expect(unit.referenceIDC == 2)
    }
}
