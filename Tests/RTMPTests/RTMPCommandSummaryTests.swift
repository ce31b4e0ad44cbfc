import Foundation
import TestSupport
import Testing
@testable import RTMP

@Suite("Checking AMF0 commands before librtmp decodes them (RTMPCommandSummary over FLV's AMF0Decoder)")
struct RTMPCommandSummaryTests {
    static let corpusDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static func corpus() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path).filter { $0.hasSuffix(".amf0") }.sorted()
        return try names.map { ($0, [UInt8](try Data(contentsOf: corpusDirectory.appendingPathComponent($0)))) }
    }

    @Test("golden bytes: an onStatus gives its name, code and description")
    func goldenOnStatus() throws {
        let body: [UInt8] = [
            0x02, 0x00, 0x08] + Array("onStatus".utf8) + [        // string "onStatus"
            0x00, 0, 0, 0, 0, 0, 0, 0, 0,                         // number 0 (transaction)
            0x05,                                                 // null
            0x03,                                                 // object
            0x00, 0x04] + Array("code".utf8) + [0x02, 0x00, 0x17] + Array("NetStream.Publish.Start".utf8) + [
            0x00, 0x0B] + Array("description".utf8) + [0x02, 0x00, 0x02] + Array("ok".utf8) + [
            0x00, 0x00, 0x09,                                     // object end
        ]
        let summary = try RTMPCommandSummary(body: body)
        #expect(summary.command == "onStatus")
        #expect(summary.properties == ["code": "NetStream.Publish.Start", "description": "ok"])
        #expect(summary.values == 6)
        #expect(summary.depth == 1)
    }

    @Test("every corpus file is accepted")
    func corpusAccepted() throws {
        let files = try Self.corpus()
        try #require(files.count >= 7)
        for file in files {
            #expect(throws: Never.self, "\(file.name)") { try RTMPCommandSummary(body: file.bytes) }
        }
        let start = try #require(files.first { $0.name == "publish-start.amf0" })
        #expect(try RTMPCommandSummary(body: start.bytes).properties["code"] == "NetStream.Publish.Start")
    }

    @Test("20 000 levels of nesting are refused at the limit, before the decoder recurses past it (librtmp crashed here)")
    func deepNesting() {
        let body = TestChunks.string("_result") + TestChunks.number(1) + TestChunks.null + TestChunks.nested(depth: 20000)
        #expect(throws: RTMPProtocolViolation.amfTooDeep(limit: 16)) { try RTMPCommandSummary(body: body) }
    }

    @Test("depth 16 passes, 17 is refused", arguments: [16, 17])
    func depthLimit(depth: Int) throws {
        let body = TestChunks.string("x") + TestChunks.nested(depth: depth)
        if depth <= 16 {
            #expect(try RTMPCommandSummary(body: body).depth == depth)
        } else {
            #expect(throws: RTMPProtocolViolation.amfTooDeep(limit: 16)) { try RTMPCommandSummary(body: body) }
        }
    }

    @Test("an object of 2 000 000 properties is refused at the value limit")
    func wideObject() {
        let body = TestChunks.string("_result") + [0x03] + [UInt8]([0x00, 0x01, 0x70, 0x05]).repeated(2_000_000) + [0, 0, 9]
        #expect(throws: RTMPProtocolViolation.amfTooManyValues(limit: 1024)) { try RTMPCommandSummary(body: body) }
    }

    @Test("types a server has no reason to send are refused", arguments: [UInt8(0x04), 0x07, 0x0E, 0x10, 0x11, 0x09, 0x42])
    func refusedTypes(marker: UInt8) {
        #expect(throws: RTMPProtocolViolation.self) { try RTMPCommandSummary(body: TestChunks.string("x") + [marker, 0, 0, 0, 0]) }
    }

    @Test("truncated values and an unterminated object are refused")
    func truncated() {
        let full = TestChunks.onStatus(code: "NetStream.Publish.Start", description: "d")
        for length in 1..<full.count where ![11, 20, 21].contains(length) {  // not after a whole value
            #expect(throws: RTMPProtocolViolation.self, "first \(length) bytes") { try RTMPCommandSummary(body: full.prefix(length)) }
        }
        // A strict array whose count exceeds the data is refused before anything is reserved for it.
        #expect(throws: RTMPProtocolViolation.amfMalformed("truncated data: needed 4294967295 bytes, only 1 available")) {
            try RTMPCommandSummary(body: [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x05])
        }
    }

    // MARK: Fuzzing against an independent reference

    /// A recursive AMF0 reader written from the spec for this test only (cut off just past the
    /// limit, so it cannot recurse far): whether `bytes` is a well-formed value sequence, and its
    /// value count and depth.
    struct Reference {
        let bytes: [UInt8]
        var at = 0
        var values = 0
        var depth = 0

        mutating func u(_ count: Int) -> Int? {
            guard bytes.count - at >= count else { return nil }
            defer { at += count }
            return bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
        }

        mutating func value(level: Int) -> Bool {
            values += 1
            guard let marker = u(1) else { return false }
            switch marker {
            case 0x00: return u(8) != nil
            case 0x01: return u(1) != nil
            case 0x02: guard let n = u(2) else { return false }; return u(n) != nil || n == 0
            case 0x0C, 0x0F: guard let n = u(4) else { return false }; return n == 0 || (n <= bytes.count - at && u(n) != nil)
            case 0x05, 0x06, 0x0D: return true
            case 0x0B: return u(10) != nil
            case 0x03, 0x08:
                if marker == 0x08 && u(4) == nil { return false }
                depth = max(depth, level + 1)
                if level + 1 > 17 { return false }
                while true {
                    if bytes.count - at >= 3, bytes[at] == 0, bytes[at + 1] == 0, bytes[at + 2] == 9 { at += 3; return true }
                    guard let n = u(2), n == 0 || u(n) != nil, value(level: level + 1) else { return false }
                }
            case 0x0A:
                guard let n = u(4), n <= bytes.count - at else { return false }
                depth = max(depth, level + 1)
                if level + 1 > 17 { return false }
                for _ in 0..<n where !value(level: level + 1) { return false }
                return true
            default: return false
            }
        }

        /// (valid, values, depth) for a whole body.
        static func read(_ bytes: [UInt8]) -> (Bool, Int, Int) {
            var reader = Reference(bytes: bytes)
            while reader.at < bytes.count {
                if !reader.value(level: 0) || reader.values > 2000 { return (false, reader.values, reader.depth) }
            }
            return (true, reader.values, reader.depth)
        }
    }

    /// A random well-formed value of at most `depth` levels.
    static func randomValue(_ random: inout SplitMix64, depth: Int) -> [UInt8] {
        switch random.next(in: depth > 0 ? 0...9 : 0...6) {
        case 0: return TestChunks.number(Double(random.next(in: 0...1000)))
        case 1: return [0x01, UInt8(random.next(in: 0...1))]
        case 2: return TestChunks.string(String(repeating: "s", count: random.next(in: 0...40)))
        case 3: return [0x05]
        case 4: return [0x06]
        case 5: return [0x0B] + [UInt8](repeating: 0, count: 10)
        case 6: return [0x0C, 0, 0, 0, 3] + Array("abc".utf8)
        case 7, 8:
            let pairs = (0..<random.next(in: 0...4)).map { i in ("p\(i)", randomValue(&random, depth: depth - 1)) }
            return random.next(in: 0...1) == 0 ? TestChunks.object(pairs)
                : [0x08] + TestChunks.u32(UInt32(pairs.count)) + Array(TestChunks.object(pairs).dropFirst())
        default:
            let items = (0..<random.next(in: 0...4)).map { _ in randomValue(&random, depth: depth - 1) }
            return [0x0A] + TestChunks.u32(UInt32(items.count)) + items.flatMap { $0 }
        }
    }

    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<random.next(in: 1...4) {
            let position = bytes.isEmpty ? 0 : random.next(in: 0...bytes.count - 1)
            switch random.next(in: 0...5) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8(random.next(in: 0...255))
            case 1 where !bytes.isEmpty: bytes[position] ^= UInt8(1 << random.next(in: 0...7))
            case 2: bytes = Array(bytes.prefix(position))
            case 3: bytes.insert(contentsOf: (0..<random.next(in: 1...8)).map { _ in UInt8(random.next(in: 0...255)) }, at: position)
            case 4 where !bytes.isEmpty:
                let end = random.next(in: position...bytes.count - 1)
                bytes.insert(contentsOf: bytes[position...end], at: position)
            default:
                bytes.insert(contentsOf: [[0x03], [0x0A, 0, 0, 0, 1], [0x08, 0, 0, 0, 0], [0, 0, 9], [0x02, 0xFF, 0xFF]][random.next(in: 0...4)], at: position)
            }
        }
        return bytes
    }

    /// The summary accepts exactly what the reference reads as well-formed within the limits,
    /// and counts the same, for generated values and for mutations of them and of the corpus.
    @Test("fuzz: random and mutated AMF0 agree with the reference reader, and nothing crashes")
    func fuzz() throws {
        var random = SplitMix64(seed: 0xA3F0)
        var inputs = try Self.corpus().map(\.bytes)
        for _ in 0..<300 {
            inputs.append(TestChunks.string("_result") + (0..<random.next(in: 1...3)).flatMap { _ in Self.randomValue(&random, depth: random.next(in: 0...20)) })
        }
        var accepted = 0
        var cases = 0
        for seed in inputs {
            for round in 0..<40 {
                let input = round == 0 ? seed : Self.mutate(seed, &random)
                cases += 1
                let (valid, values, depth) = Reference.read(input)
                let withinLimits = valid && values <= 1024 && depth <= 16
                do throws(RTMPProtocolViolation) {
                    let summary = try RTMPCommandSummary(body: input)
                    accepted += 1
                    #expect(withinLimits, "the summary accepted what the reference refuses: \(input)")
                    #expect(summary.values == values && summary.depth == depth, "\(input)")
                } catch {
                    #expect(!withinLimits, "the summary refused well-formed input (\(error)): \(input)")
                }
            }
        }
        // Both outcomes were exercised in quantity.
        #expect(cases > 12_000)
        #expect(accepted > 1000 && accepted < cases - 1000, "accepted \(accepted) of \(cases)")
    }
}
