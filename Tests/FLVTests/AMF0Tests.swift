import Testing
@testable import FLV

@Suite struct AMF0Tests {
    @Test func encodesGoldenScalars() throws {
        #expect(try AMF0Value.number(1).encoded() == [
            0x00,                                            // number marker
            0x3F, 0xF0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1.0 as big-endian IEEE-754
        ])
        #expect(try AMF0Value.boolean(true).encoded() == [0x01, 0x01])  // boolean marker, true
        #expect(try AMF0Value.string("ab").encoded() == [
            0x02,        // string marker
            0x00, 0x02,  // UTF-8 length 2
            0x61, 0x62,  // "ab"
        ])
        #expect(try AMF0Value.longString("ab").encoded() == [
            0x0C,                    // long string marker
            0x00, 0x00, 0x00, 0x02,  // 32-bit length 2
            0x61, 0x62,              // "ab"
        ])
        #expect(try AMF0Value.null.encoded() == [0x05])
        #expect(try AMF0Value.undefined.encoded() == [0x06])
        #expect(try AMF0Value.date(millisecondsSince1970: 2, timeZone: 0).encoded() == [
            0x0B,                                            // date marker
            0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 2.0 ms
            0x00, 0x00,                                      // time zone, reserved 0
        ])
    }

    @Test func encodesGoldenContainers() throws {
        #expect(try AMF0Value.object([AMF0Property("a", .boolean(false))]).encoded() == [
            0x03,              // object marker
            0x00, 0x01, 0x61,  // key "a"
            0x01, 0x00,        // boolean false
            0x00, 0x00, 0x09,  // empty key + object-end marker
        ])
        #expect(try AMF0Value.ecmaArray([AMF0Property("a", .null)]).encoded() == [
            0x08,                    // ECMA array marker
            0x00, 0x00, 0x00, 0x01,  // associative count 1
            0x00, 0x01, 0x61,        // key "a"
            0x05,                    // null
            0x00, 0x00, 0x09,        // empty key + object-end marker
        ])
        #expect(try AMF0Value.strictArray([.null, .boolean(true)]).encoded() == [
            0x0A,                    // strict array marker
            0x00, 0x00, 0x00, 0x02,  // count 2
            0x05,                    // null
            0x01, 0x01,              // boolean true
        ])
    }

    static let nested = AMF0Value.ecmaArray([
        AMF0Property("name", .string("Camcast ✓")),
        AMF0Property("rate", .number(29.97)),
        AMF0Property("on", .boolean(true)),
        AMF0Property("nothing", .null),
        AMF0Property("gone", .undefined),
        AMF0Property("when", .date(millisecondsSince1970: 1_700_000_000_000, timeZone: 0)),
        AMF0Property("long", .longString(String(repeating: "x", count: 70_000))),
        AMF0Property("inner", .object([
            AMF0Property("list", .strictArray([.number(-1), .string(""), .object([]), .ecmaArray([])])),
            AMF0Property("k", .number(0)),
        ])),
    ])

    @Test(arguments: [
        AMF0Value.number(-0.5), .number(.infinity), .boolean(false), .string(""), .string("héllo"),
        .longString(""), .null, .undefined, .date(millisecondsSince1970: -1, timeZone: 60),
        .object([]), .ecmaArray([]), .strictArray([]), nested,
    ])
    func roundTrips(value: AMF0Value) throws {
        let bytes = try value.encoded()
        var decoder = AMF0Decoder(bytes)
        #expect(try decoder.decode() == value)
        #expect(decoder.isAtEnd)
    }

    @Test func decodesSeveralValuesInSequence() throws {
        let bytes = try AMF0Value.string("onMetaData").encoded() + AMF0Value.number(3).encoded()
        var decoder = AMF0Decoder(bytes)
        #expect(try decoder.decodeAll() == [.string("onMetaData"), .number(3)])
    }

    @Test func everyPrefixOfANestedValueIsTruncated() throws {
        let small = AMF0Value.object([
            AMF0Property("a", .strictArray([.number(1), .string("xy")])),
            AMF0Property("b", .ecmaArray([AMF0Property("c", .date(millisecondsSince1970: 0, timeZone: 0))])),
        ])
        for prefix in Fixtures.prefixes(of: try small.encoded()) {
            let error = #expect(throws: FLVError.self) { try AMF0Value.decode(from: prefix) }
            guard case .truncated = error else {
                Issue.record("prefix of \(prefix.count) bytes gave \(String(describing: error))")
                continue
            }
        }
    }

    @Test func rejectsStringLengthOverrun() {
        // String marker, length 5, but only one byte of text follows.
        #expect(throws: FLVError.truncated(needed: 5, available: 1)) {
            try AMF0Value.decode(from: [0x02, 0x00, 0x05, 0x61])
        }
        // Long string claiming 4 GiB.
        #expect(throws: FLVError.truncated(needed: 0xFFFF_FFFF, available: 0)) {
            try AMF0Value.decode(from: [0x0C, 0xFF, 0xFF, 0xFF, 0xFF])
        }
    }

    @Test func rejectsAStrictArrayCountBeyondTheInput() {
        #expect(throws: FLVError.truncated(needed: 0xFFFF_FFFF, available: 1)) {
            try AMF0Value.decode(from: [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x05])
        }
    }

    @Test(arguments: [UInt8(0x04), 0x07, 0x09, 0x0E, 0x10, 0x11, 0x12, 0xFF])
    func rejectsUnsupportedMarkers(marker: UInt8) {
        #expect(throws: FLVError.badAMF0Marker(marker)) {
            try AMF0Value.decode(from: [marker, 0, 0, 0, 0, 0, 0, 0, 0])
        }
    }

    /// librtmp reads an empty name followed by anything but the end marker as a property.
    @Test func readsAnEmptyKeyThatIsNotTheObjectEnd() throws {
        #expect(try AMF0Value.decode(from: [0x03, 0x00, 0x00, 0x05, 0x00, 0x00, 0x09]) == .object([AMF0Property("", .null)]))
        #expect(throws: FLVError.self) { try AMF0Value.decode(from: [0x03, 0x00, 0x00, 0x05]) }
    }

    /// librtmp and FFmpeg pass string bytes on as they are; Camcast reads them with U+FFFD.
    @Test func readsInvalidUTF8WithReplacementCharacters() throws {
        #expect(try AMF0Value.decode(from: [0x02, 0x00, 0x02, 0x61, 0xFF]) == .string("a\u{FFFD}"))
    }

    @Test func readsAndWritesXMLDocumentsAndTheUnsupportedMarker() throws {
        let golden: [UInt8] = [0x0F, 0x00, 0x00, 0x00, 0x04] + Array("<a/>".utf8) + [0x0D]
        var decoder = AMF0Decoder(golden)
        let values = try decoder.decodeAll()
        #expect(values == [.xmlDocument("<a/>"), .unsupported])
        #expect(try values.flatMap { try $0.encoded() } == golden)
    }

    @Test func countsValuesAndNestingAgainstItsLimits() throws {
        // An object holding a strict array of two numbers: 4 values, nesting 2.
        let bytes: [UInt8] = [0x03, 0x00, 0x01, 0x61, 0x0A, 0, 0, 0, 2] + [0x00] + [UInt8](repeating: 0, count: 8)
            + [0x00] + [UInt8](repeating: 0, count: 8) + [0x00, 0x00, 0x09]
        var decoder = AMF0Decoder(bytes)
        _ = try decoder.decodeAll()
        #expect(decoder.valuesDecoded == 4 && decoder.deepestNesting == 2)
        var narrow = AMF0Decoder(bytes, limits: AMF0Decoder.Limits(depth: 2, values: 3))
        #expect(throws: FLVError.amf0TooManyValues(3)) { try narrow.decodeAll() }
        var shallow = AMF0Decoder(bytes, limits: AMF0Decoder.Limits(depth: 1))
        #expect(throws: FLVError.amf0NestingTooDeep(1)) { try shallow.decodeAll() }
    }

    @Test func rejectsDeepNesting() {
        // 40 strict arrays of one element each, around a null.
        let bytes = Array([[UInt8]](repeating: [0x0A, 0, 0, 0, 1], count: 40).joined()) + [0x05]
        #expect(throws: FLVError.amf0NestingTooDeep(AMF0Decoder.maxDepth)) { try AMF0Value.decode(from: bytes) }
    }

    @Test func refusesToEncodeOverlongShortStrings() throws {
        let limit = String(repeating: "a", count: 65_535)
        #expect(try AMF0Value.string(limit).encoded().count == 3 + 65_535)
        #expect(throws: FLVError.stringTooLong(65_536)) { try AMF0Value.string(limit + "a").encoded() }
        #expect(throws: FLVError.stringTooLong(65_536)) {
            try AMF0Value.object([AMF0Property(limit + "a", .null)]).encoded()
        }
    }

    @Test func looksUpKeysInOrder() {
        let value = AMF0Value.object([AMF0Property("k", .number(1)), AMF0Property("k", .number(2))])
        #expect(value["k"] == .number(1))
        #expect(value["missing"] == nil)
        #expect(AMF0Value.null["k"] == nil)
    }
}
