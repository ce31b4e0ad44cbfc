/// The encoder session's keyframe schedule (Sources/Encoder/KeyframeSchedule.swift) as a
/// recording shows it: after each keyframe, the next is the first picture at or after the interval
/// less half a frame, rounded down to a millisecond (1983 ms for 2 s at 30 fps), however many
/// slots a loaded source skipped before it. Without skips that is every 60th picture; counting
/// pictures instead would fail on any machine too slow to encode every slot.
public enum KeyframeScheduleCheck {
    /// What breaks the schedule in pictures with timestamps `times` (ms, in order) and keyframe
    /// flags `keys`; empty when nothing does. Timestamps in whole milliseconds may be one off.
    public static func problems(times: [Int], keys: [Bool], dueAfterMilliseconds due: Int) -> [String] {
        guard let first = keys.first else { return ["no picture"] }
        var problems: [String] = first ? [] : ["the first picture is not a keyframe"]
        let keyIndices = keys.indices.filter { keys[$0] }
        for (previous, key) in zip(keyIndices, keyIndices.dropFirst()) {
            let dueAt = times[previous] + due
            if times[key] < dueAt - 1 || times[key - 1] >= dueAt + 1 {
                problems.append("keyframe at \(times[key]) ms after one at \(times[previous]) ms; the picture before it at \(times[key - 1]) ms")
            }
        }
        // After the last keyframe, no picture that should have been one.
        if let last = keyIndices.last, let late = times[last...].first(where: { $0 >= times[last] + due + 1 }) {
            problems.append("no keyframe at \(late) ms, \(late - times[last]) ms after the last at \(times[last]) ms")
        }
        return problems
    }
}
