import Foundation
@testable import FLV

/// Bytes and helpers shared by the FLV tests.
enum Fixtures {
    /// A real High-profile SPS from x264 (ffmpeg testsrc2 640x360 30 fps, `-profile:v high`),
    /// including two emulation-prevention bytes (00 00 03).
    static let highSPS: [UInt8] = [
        0x67, 0x64, 0x00, 0x1E, 0xAC, 0xB2, 0x01, 0x40, 0x5F, 0xF2, 0xE0, 0x22, 0x00, 0x00, 0x03,
        0x00, 0x02, 0x00, 0x00, 0x03, 0x00, 0x78, 0x1E, 0x2C, 0x5C, 0x90,
    ]
    /// The PPS from the same stream.
    static let highPPS: [UInt8] = [0x68, 0xEB, 0xC3, 0xCB, 0x22, 0xC0]

    /// A real Constrained Baseline SPS/PPS from x264 (320x240, `-profile:v baseline`).
    static let baselineSPS: [UInt8] = [
        0x67, 0x42, 0xC0, 0x0D, 0xD9, 0x01, 0x41, 0xFB, 0x01, 0x10, 0x00, 0x00, 0x03, 0x00, 0x10,
        0x00, 0x00, 0x03, 0x03, 0x20, 0xF1, 0x42, 0xA4, 0x80,
    ]
    static let baselinePPS: [UInt8] = [0x68, 0xCB, 0x83, 0xCB, 0x20]

    /// Every proper prefix of `bytes`: the one-byte-at-a-time view of a whole-buffer parser.
    static func prefixes(of bytes: [UInt8]) -> [[UInt8]] {
        (0..<bytes.count).map { Array(bytes[..<$0]) }
    }

    /// A fresh directory under the system temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flvtests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Splits an Annex-B byte stream at its 00 00 01 / 00 00 00 01 start codes.
    static func annexBNALUnits(_ stream: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var index = 0
        var unitStart: Int?
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                if let start = unitStart {
                    var end = index
                    while end > start, stream[end - 1] == 0 { end -= 1 }  // trailing zero of a 4-byte code
                    units.append(Array(stream[start..<end]))
                }
                index += 3
                unitStart = index
            } else {
                index += 1
            }
        }
        if let start = unitStart { units.append(Array(stream[start...])) }
        return units
    }

    /// Groups NAL units into frames: each frame is the non-VCL units (SEI, AUD) before a slice
    /// plus that slice. x264 writes one slice per frame here. SPS and PPS are returned apart.
    static func frames(from units: [[UInt8]]) -> (sps: [UInt8]?, pps: [UInt8]?, frames: [(nalUnits: [[UInt8]], isKeyframe: Bool)]) {
        var sps: [UInt8]?
        var pps: [UInt8]?
        var frames: [(nalUnits: [[UInt8]], isKeyframe: Bool)] = []
        var pending: [[UInt8]] = []
        for unit in units {
            switch unit[0] & 0x1F {
            case 7: sps = sps ?? unit
            case 8: pps = pps ?? unit
            case 1, 5:
                frames.append((pending + [unit], unit[0] & 0x1F == 5))
                pending = []
            default: pending.append(unit)
            }
        }
        return (sps, pps, frames)
    }
}
