/// The rule a TZif file's footer states for every instant after its last transition, in the
/// POSIX TZ syntax (POSIX.1-2017 §8.3, as extended by RFC 8536 §3.3.1): `CET-1CEST,M3.5.0,M10.5.0/3`.
///
/// Debian's zoneinfo files list transitions only to 2037; this rule carries a schedule beyond.
struct POSIXZoneRule: Sendable, Equatable {
    /// Seconds east of UTC (POSIX writes them west: `CET-1` is UTC+1).
    var standardOffset: Int
    var daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        var offset: Int
        var start: TransitionDate
        /// Seconds after local midnight, in standard time (may be negative or past 24 h: RFC 8536).
        var startTime: Int
        var end: TransitionDate
        /// Seconds after local midnight, in daylight time.
        var endTime: Int
    }

    enum TransitionDate: Sendable, Equatable {
        /// `Jn`: day 1…365, 29 February never counted.
        case julianNoLeap(Int)
        /// `n`: day 0…365, 29 February counted.
        case zeroBasedDay(Int)
        /// `Mm.w.d`: weekday d (0 = Sunday) of week w (5 = the last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        func date(in year: Int) -> CivilDate {
            switch self {
            case .julianNoLeap(let day):
                let leapShift = CivilDate.isLeap(year) && day >= 60 ? 1 : 0
                return CivilDate(year: year, month: 1, day: 1).adding(days: day - 1 + leapShift)
            case .zeroBasedDay(let day):
                return CivilDate(year: year, month: 1, day: 1).adding(days: day)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                let firstWeekday = first.weekday.rawValue % 7  // 0 = Sunday, as POSIX counts
                var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                let length = CivilDate.daysIn(month: month, year: year)
                while day > length { day -= 7 }
                return CivilDate(year: year, month: month, day: day)
            }
        }
    }

    /// Seconds east of UTC at `instant`.
    func offset(at instant: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = CivilDate(daysSince1970: (instant + Int64(standardOffset)).floorDivided(by: 86_400)).year
        let start = Self.instant(daylight.start.date(in: year), daylight.startTime, standardOffset)
        let end = Self.instant(daylight.end.date(in: year), daylight.endTime, daylight.offset)
        let inDaylight = start < end ? (start <= instant && instant < end) : !(end <= instant && instant < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    private static func instant(_ date: CivilDate, _ time: Int, _ offset: Int) -> Int64 {
        date.daysSince1970 * 86_400 + Int64(time) - Int64(offset)
    }

    /// nil when the text is not a rule this reader understands (the transitions alone then serve).
    init?(parsing text: String) {
        var scanner = Scanner(Array(text.unicodeScalars))
        guard scanner.skipName(), let standardWest = scanner.offset() else { return nil }
        standardOffset = -standardWest
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.skipName() else { return nil }
        var daylightOffset = standardOffset + 3600
        if let west = scanner.offset() { daylightOffset = -west }
        guard scanner.take(","), let start = scanner.transitionDate() else { return nil }
        let startTime = scanner.take("/") ? scanner.offset() : 7200
        guard let startTime, scanner.take(","), let end = scanner.transitionDate() else { return nil }
        let endTime = scanner.take("/") ? scanner.offset() : 7200
        guard let endTime, scanner.atEnd else { return nil }
        daylight = Daylight(offset: daylightOffset, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    private struct Scanner {
        var scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index == scalars.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < scalars.count, scalars[index] == character else { return false }
            index += 1
            return true
        }

        /// `CET` or `<+03>`.
        mutating func skipName() -> Bool {
            if take("<") {
                while index < scalars.count, scalars[index] != ">" { index += 1 }
                return take(">")
            }
            let begin = index
            while index < scalars.count, scalars[index].properties.isAlphabetic { index += 1 }
            return index - begin >= 3
        }

        mutating func number() -> Int? {
            let begin = index
            var value = 0
            while index < scalars.count, let digit = Int(String(scalars[index])), scalars[index].isASCII {
                value = value * 10 + digit
                index += 1
            }
            return index > begin ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, sign as written.
        mutating func offset() -> Int? {
            var sign = 1
            if take("-") { sign = -1 } else { _ = take("+") }
            guard let hours = number() else { return nil }
            var seconds = hours * 3600
            if take(":") {
                guard let minutes = number() else { return nil }
                seconds += minutes * 60
                if take(":") {
                    guard let rest = number() else { return nil }
                    seconds += rest
                }
            }
            return sign * seconds
        }

        mutating func transitionDate() -> TransitionDate? {
            if take("J") {
                guard let day = number(), (1...365).contains(day) else { return nil }
                return .julianNoLeap(day)
            }
            if take("M") {
                guard let month = number(), take("."), let week = number(), take("."), let weekday = number(),
                      (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday)
                else { return nil }
                return .monthWeekDay(month: month, week: week, weekday: weekday)
            }
            guard let day = number(), (0...365).contains(day) else { return nil }
            return .zeroBasedDay(day)
        }
    }
}
