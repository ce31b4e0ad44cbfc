import Foundation

/// A segmented recording held picture by picture against an independent record of the same run
/// (a `.flv` or raw `.h264` output written beside it, or nginx-rtmp's recording): FFmpeg decodes
/// both, and the pixels' MD5 says which picture is which. Nothing here reads the recorder's own
/// counts, so a picture it drops, doubles or misplaces shows however loaded the machine was (a
/// slot the source skipped is missing from both).
public struct SegmentsAgainstReference: Sendable {
    public var reference: DecodedPictures
    public var segments: [DecodedPictures]
    /// For each segment, each picture's index in the reference (nil: not in it).
    public var positions: [[Int?]]

    public init(segments: [URL], reference: URL) throws {
        let reference = try DecodedPictures(reference)
        let segments = try segments.map(DecodedPictures.init)
        self.reference = reference
        self.segments = segments
        positions = segments.map { reference.indices(of: $0.pictures) }
    }

    /// Reference pictures (their indices) that no segment holds, in order.
    public var lost: [Int] {
        let held = Set(positions.joined().compactMap { $0 })
        return reference.pictures.indices.filter { !held.contains($0) }
    }

    /// What keeps the segments from holding exactly the reference's pictures, each once, in the
    /// reference's order, within `span` (reference indices; all of them by default, fewer for a
    /// reference that runs on before and after the recording): lost, foreign, doubled or
    /// reordered pictures, named by segment and time. `allowedLoss`: reference indices whose loss
    /// is expected (say, a reload's swap).
    public func continuityProblems(span: ClosedRange<Int>? = nil, allowedLoss: Set<Int> = []) -> [String] {
        var problems: [String] = []
        for (number, segment) in positions.enumerated() {
            let name = segments[number].file.lastPathComponent
            let foreign = segment.indices.filter { segment[$0] == nil }
            if !foreign.isEmpty {
                problems.append("\(name): \(foreign.count) pictures the reference lacks, at \(DecodedPictures.describe(foreign.map { segments[number].pictures[$0] }))")
            }
        }
        let order = positions.joined().compactMap { $0 }
        if let step = zip(order, order.dropFirst()).first(where: { $0.1 <= $0.0 }) {
            let (a, b) = (reference.pictures[step.0].seconds, reference.pictures[step.1].seconds)
            problems.append(String(format: "the picture of %.3f s comes after the one of %.3f s: doubled or out of order", b, a))
        }
        let missing = lost.filter { (span?.contains($0) ?? true) && !allowedLoss.contains($0) }
        if !missing.isEmpty {
            problems.append("\(missing.count) pictures of the reference in no segment, at \(DecodedPictures.describe(missing.map { reference.pictures[$0] }))")
        }
        return problems
    }

    /// Whether each segment but the last was cut where the recorder's rule says, on the
    /// reference's time line: the next segment starts at the reference's first keyframe at or
    /// after `segmentSeconds` from this one's first picture (the next keyframe after it, if a
    /// segment is given a keyframe late). With `continuityProblems` empty, this is its length.
    public func cutProblems(segmentSeconds: Double) -> [String] {
        var problems: [String] = []
        for number in positions.indices.dropLast() {
            guard let start = positions[number].first ?? nil, let next = positions[number + 1].first ?? nil else { continue }
            let startTime = reference.pictures[start].seconds
            // Times are milliseconds (FLV, MP4) or 90 kHz (MPEG-TS): half a millisecond of rounding.
            let due = reference.pictures.indices.first { $0 > start && reference.pictures[$0].isKeyframe
                && reference.pictures[$0].seconds - startTime >= segmentSeconds - 0.0005 }
            if next != due {
                let at = { (index: Int?) in index.map { String(format: "%.3f s", reference.pictures[$0].seconds - startTime) } ?? "none" }
                problems.append("\(segments[number].file.lastPathComponent): the next segment starts \(at(next)) after its start; the first keyframe \(segmentSeconds) s on is \(at(due))")
            }
        }
        return problems
    }

    /// Whether every picture in a segment keeps its time: its distance from the segment's first
    /// picture is the reference's, within `tolerance` seconds (the two containers' rounding).
    public func timelineProblems(tolerance: Double = 0.0011) -> [String] {
        var problems: [String] = []
        for (number, segment) in positions.enumerated() {
            let pictures = segments[number].pictures
            guard let first = segment.first ?? nil, let firstTime = pictures.first?.seconds else { continue }
            let referenceStart = reference.pictures[first].seconds
            let moved = segment.indices.filter { index in
                guard let at = segment[index] else { return false }
                return abs((pictures[index].seconds - firstTime) - (reference.pictures[at].seconds - referenceStart)) > tolerance
            }
            if let index = moved.first, let at = segment[index] {
                problems.append(String(
                    format: "%@: %d pictures off the reference's time line, the first at %.3f s (the reference says %.3f s)",
                    segments[number].file.lastPathComponent, moved.count, pictures[index].seconds - firstTime, reference.pictures[at].seconds - referenceStart))
            }
        }
        return problems
    }
}
