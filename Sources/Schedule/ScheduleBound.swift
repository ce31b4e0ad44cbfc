/// One end of a window: a wall-clock time (`07:30`) or a sun event with an offset (`sunset+15m`).
public enum ScheduleBound: Sendable, Hashable, CustomStringConvertible {
    case clock(LocalTime)
    case solar(SolarEvent, offsetSeconds: Int)

    /// An offset reaches at most this far from its event: further, and "sunrise+13h" is a time
    /// of day the user should write as one.
    public static let maximumOffsetSeconds = 12 * 3600

    /// Why a bound's text is not one, in the user's words.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// `07:30`, `sunrise`, `sunrise-30m`, `sunset+15m`, `dusk+1h`, `dawn-1h30m`.
    public init(parsing text: String) throws(ParseError) {
        let trimmed = text.lowercased()
        if let time = LocalTime(parsing: trimmed) {
            self = .clock(time)
            return
        }
        guard let event = SolarEvent.allCases.first(where: { trimmed.hasPrefix($0.rawValue) }) else {
            if trimmed.contains(":") {
                throw ParseError(description: "`\(text)` is not a time of day (expected HH:MM from 00:00 to 23:59)")
            }
            throw ParseError(description: "`\(text)` is not a time (expected HH:MM such as 07:30, or sunrise, sunset, dawn or dusk with an optional offset such as sunset+15m or sunrise-1h)")
        }
        let rest = trimmed.dropFirst(event.rawValue.count)
        guard !rest.isEmpty else {
            self = .solar(event, offsetSeconds: 0)
            return
        }
        guard let offset = Self.offsetSeconds(rest) else {
            throw ParseError(description: "`\(text)` has an offset that is not one (expected +N or -N with m or h, such as \(event)+15m, \(event)-1h or \(event)+1h30m)")
        }
        guard abs(offset) <= Self.maximumOffsetSeconds else {
            throw ParseError(description: "`\(text)` is too far from \(event) (offsets reach at most 12h)")
        }
        self = .solar(event, offsetSeconds: offset)
    }

    /// `+15m`, `-1h`, `+1h30m`.
    private static func offsetSeconds(_ text: Substring) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        var seconds = 0
        var number = ""
        var units: [Character] = []
        for character in text.dropFirst() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int(number), number.count <= 4, character == "h" || character == "m", !units.contains(character),
                  units.last != "m"
            else { return nil }
            seconds += value * (character == "h" ? 3600 : 60)
            units.append(character)
            number = ""
        }
        guard number.isEmpty, !units.isEmpty else { return nil }
        return sign == "-" ? -seconds : seconds
    }

    /// Where the bound sits in a day of twelve hours' light (dawn 05:30, sunrise 06:00, sunset
    /// 18:00, dusk 18:30), for deciding whether a window crosses midnight the same way every day:
    /// `sunset` to `sunrise` does, `07:00` to `sunset` does not, whatever the season.
    var nominalSecondsOfDay: Int {
        switch self {
        case .clock(let time):
            return time.secondsOfDay
        case .solar(let event, let offset):
            let base = [SolarEvent.dawn: 19_800, .sunrise: 21_600, .sunset: 64_800, .dusk: 66_600][event]!
            return base + offset
        }
    }

    public var isSolar: Bool {
        if case .solar = self { return true }
        return false
    }

    /// As the user writes it: `07:30`, `sunset+15m`, `sunrise-1h30m`.
    public var description: String {
        switch self {
        case .clock(let time):
            return time.description
        case .solar(let event, 0):
            return event.rawValue
        case .solar(let event, let offset):
            let magnitude = abs(offset)
            var text = "\(event)\(offset < 0 ? "-" : "+")"
            if magnitude >= 3600 { text += "\(magnitude / 3600)h" }
            if magnitude % 3600 != 0 { text += "\(magnitude % 3600 / 60)m" }
            return text
        }
    }
}
