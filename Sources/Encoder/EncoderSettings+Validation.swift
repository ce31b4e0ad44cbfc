internal import CX264
internal import CX265

extension EncoderSettings {
    /// The bitrates Camcast accepts, in kbit/s: below 50 nothing watchable comes out, above
    /// 100 Mbit/s no RTMP ingest takes it.
    public static let bitrateRangeKbps = 50...100_000

    /// x264's preset names, fastest first.
    public static var presetNames: [String] {
        var names: [String] = []
        var index: Int32 = 0
        while let name = cx264_preset_name(index) {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// x265's preset names, fastest first (the same ten names as x264's in x265 3.5).
    public static var h265PresetNames: [String] {
        var names: [String] = []
        var index: Int32 = 0
        while let name = cx265_preset_name(index) {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// The levels x264 knows (all of H.264 Table A-1), written as settings take them ("1b", "3.1"…).
    public static var levelNames: [String] {
        knownLevelIDCs.map(Self.levelName(idc:))
    }

    /// Every problem with these settings; empty when a session can be opened with them.
    /// `prefix` is the key path the settings live under in the config file.
    public func validate(prefix: String = "encoder") -> [EncoderSettingsProblem] {
        var problems: [EncoderSettingsProblem] = []
        func problem(_ key: String, _ value: some CustomStringConvertible, _ allowed: String) {
            problems.append(EncoderSettingsProblem(setting: "\(prefix).\(key)", value: "\(value)", allowed: allowed))
        }

        if size.width <= 0 || size.width % 2 != 0 {
            problem("size", size, "width must be positive and even for 4:2:0 chroma")
        }
        if size.height <= 0 || size.height % 2 != 0 {
            problem("size", size, "height must be positive and even for 4:2:0 chroma")
        }
        if frameRate.numerator <= 0 || frameRate.denominator <= 0 {
            problem("frameRate", frameRate, "numerator and denominator must be positive, e.g. 30 or 30000/1001")
        }
        if !Self.bitrateRangeKbps.contains(bitrateKbps) {
            problem("bitrateKbps", bitrateKbps, "\(Self.bitrateRangeKbps.lowerBound)...\(Self.bitrateRangeKbps.upperBound) kbit/s")
        }
        if !(maxRateFactor >= 1 && maxRateFactor <= 10) {
            problem("maxRateFactor", maxRateFactor, "1.0...10.0 times the average bitrate")
        }
        if !(rateWindowSeconds >= 0.1 && rateWindowSeconds <= 10) {
            problem("rateWindowSeconds", rateWindowSeconds, "0.1...10 seconds")
        }
        if !(keyframeIntervalSeconds > 0 && keyframeIntervalSeconds.isFinite) {
            problem("keyframeIntervalSeconds", keyframeIntervalSeconds, "a positive number of seconds")
        }
        if let frames = keyframeIntervalFrames, frames <= 0 {
            problem("keyframeIntervalFrames", frames, "a positive number of frames, or unset")
        }
        let presets = codec == .h265 ? Self.h265PresetNames : Self.presetNames
        if !presets.contains(preset) {
            problem("preset", preset, "one of \(presets.joined(separator: ", "))")
        }
        if codec == .h264, let level, Self.levelIDC(parsing: level) == nil {
            problem("level", level, "one of \(Self.levelNames.joined(separator: ", ")), or unset for automatic")
        }
        if codec == .h265 {
            // Checked here rather than silently ignored: a setting that would not apply is an error.
            if let level { problem("level", level, "unset with codec h265 (x265 picks the level)") }
            if let entropy { problem("entropy", entropy.rawValue, "unset with codec h265, which has CABAC only") }
        }
        if !(0...16).contains(bFrames) {
            problem("bFrames", bFrames, "0...16")
        } else if codec == .h265 && bFrames > 0 {
            problem("bFrames", bFrames, "0 with codec h265 (the H.265 session encodes without B-frames)")
        } else if codec == .h264 && profile == .baseline && bFrames > 0 {
            problem("bFrames", bFrames, "0 with profile baseline, which has no B-slices")
        }
        if codec == .h264 && profile == .baseline && entropy == .cabac {
            problem("entropy", "cabac", "cavlc or unset with profile baseline, which has no CABAC")
        }
        if !(0...128).contains(threads) {
            problem("threads", threads, "0 (automatic)...128")
        }
        if let delay = maxFrameDelay, !(0...250).contains(delay) {
            problem("maxFrameDelay", delay, "0...250 frames, or unset")
        }
        if let backend = avcodecProblem(prefix: prefix) {
            problems.append(backend)
        } else {
            problems += avcodecOptionProblems(prefix: prefix)
        }
        return problems
    }

    /// The `level_idc` for a level written "3.1", "4", "4.0" or "1b"; nil if H.264 has no such level.
    static func levelIDC(parsing text: String) -> Int32? {
        if text == "1b" { return 9 }  // x264's code for level 1b (H.264 signals it via constraint_set3)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let major = Int32(parts[0])
        else { return nil }
        let minor = parts.count == 2 ? Int32(parts[1]) : 0
        guard let minor, minor < 10 else { return nil }
        let idc = major * 10 + minor
        return knownLevelIDCs.contains(idc) ? idc : nil
    }

    private static var knownLevelIDCs: [Int32] {
        var idcs: [Int32] = []
        var index: Int32 = 0
        while case let idc = cx264_level_idc(index), idc != 0 {
            idcs.append(idc)
            index += 1
        }
        return idcs
    }

    private static func levelName(idc: Int32) -> String {
        idc == 9 ? "1b" : "\(idc / 10).\(idc % 10)"
    }
}
