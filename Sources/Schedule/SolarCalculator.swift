#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the sun is seen from: decimal degrees, north and east positive.
public struct GeoLocation: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The sun events a schedule can name.
public enum SolarEvent: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Civil dawn: the sun's centre 6° below the horizon, rising.
    case dawn
    /// The sun's upper limb on the horizon, with standard refraction (zenith 90.833°).
    case sunrise
    case sunset
    /// Civil dusk: the sun's centre 6° below the horizon, setting.
    case dusk

    public var description: String { rawValue }

    /// Dawn and sunrise are the sun coming up; sunset and dusk, going down.
    public var isRising: Bool { self == .dawn || self == .sunrise }

    /// The zenith angle the event is defined by.
    var zenithDegrees: Double { self == .dawn || self == .dusk ? 96 : 90.833 }
}

/// What the sun does on one day at one place.
public enum SolarOccurrence: Sendable, Equatable {
    case at(WallTime)
    /// The sun stays above the event's altitude all day (polar day, or a white night for dawn and dusk).
    case alwaysUp
    /// The sun stays below it all day (polar night).
    case alwaysDown
}

/// Sunrise, sunset, civil dawn and dusk by NOAA's solar calculator: the equations of the NOAA
/// Global Monitoring Laboratory's spreadsheet (NOAA_Solar_Calculations_day.xls, after Jean Meeus,
/// "Astronomical Algorithms"): the Julian century, the sun's geometric mean longitude and anomaly,
/// the earth's orbital eccentricity, the equation of centre, the apparent longitude, the corrected
/// obliquity, the declination and the equation of time, and then the hour angle at which the sun's
/// zenith angle is 90.833° (sunrise and sunset: 50′ for refraction and the sun's radius) or 96°
/// (civil dawn and dusk). Accurate to about a minute for latitudes within ±72° (NOAA's own note);
/// nearer the poles the event moves fast with the declination and the error grows.
public enum SolarCalculator {
    /// The event on local day `date` at `location`, for a place whose clocks are about
    /// `utcOffsetSeconds` from UTC (that offset only picks which solar day is meant).
    public static func occurrence(
        of event: SolarEvent, on date: CivilDate, at location: GeoLocation, utcOffsetSeconds: Int
    ) -> SolarOccurrence {
        // Local noon of that date, then refine once at the event's own time: the declination and
        // the equation of time move during the day (a few seconds at mid latitudes, more in the Arctic).
        let noon = date.daysSince1970 * 86_400 + 12 * 3600 - Int64(utcOffsetSeconds)
        let estimate = eventInstant(event, at: Double(noon), location: location, date: date, utcOffsetSeconds: utcOffsetSeconds)
        guard case .at(let first) = estimate else { return estimate.polar }
        let refined = eventInstant(event, at: first, location: location, date: date, utcOffsetSeconds: utcOffsetSeconds)
        guard case .at(let seconds) = refined else { return refined.polar }
        return .at(WallTime(secondsSince1970: Int64(seconds.rounded())))
    }

    private enum Raw {
        case at(Double)
        case alwaysUp, alwaysDown

        var polar: SolarOccurrence {
            switch self {
            case .alwaysDown: return .alwaysDown
            default: return .alwaysUp
            }
        }
    }

    /// The event's instant (seconds since 1970) with the sun's position computed at `instant`.
    private static func eventInstant(
        _ event: SolarEvent, at instant: Double, location: GeoLocation, date: CivilDate, utcOffsetSeconds: Int
    ) -> Raw {
        let sun = SunPosition(julianCentury: (instant / 86_400 + 2_440_587.5 - 2_451_545) / 36_525)
        let latitude = radians(location.latitude)
        let declination = radians(sun.declinationDegrees)
        let cosHourAngle = cos(radians(event.zenithDegrees)) / (cos(latitude) * cos(declination)) - tan(latitude) * tan(declination)
        if cosHourAngle > 1 { return .alwaysDown }
        if cosHourAngle < -1 { return .alwaysUp }
        let hourAngleDegrees = degrees(acos(cosHourAngle))
        // Solar noon in minutes after 00:00 UTC of the local date's UTC day (NOAA: 720 − 4·longitude − EoT).
        let solarNoonMinutes = 720 - 4 * location.longitude - sun.equationOfTimeMinutes
        let eventMinutes = solarNoonMinutes + (event.isRising ? -4 : 4) * hourAngleDegrees
        var seconds = Double(date.daysSince1970 * 86_400) + eventMinutes * 60
        // The formula counts from UTC midnight of `date`; the local day is shifted by the zone's
        // offset, so the solar day meant is the one whose noon falls nearest local noon.
        let localNoon = Double(date.daysSince1970 * 86_400 + 12 * 3600 - Int64(utcOffsetSeconds))
        let noonSeconds = Double(date.daysSince1970 * 86_400) + solarNoonMinutes * 60
        seconds += ((localNoon - noonSeconds) / 86_400).rounded() * 86_400
        return .at(seconds)
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}

/// The sun's declination and the equation of time at one instant (NOAA spreadsheet, columns G–V).
struct SunPosition {
    var declinationDegrees: Double
    var equationOfTimeMinutes: Double

    init(julianCentury t: Double) {
        let radians = SolarCalculator.radians
        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let centre = sin(radians(meanAnomaly)) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(radians(2 * meanAnomaly)) * (0.019993 - 0.000101 * t)
            + sin(radians(3 * meanAnomaly)) * 0.000289
        let trueLongitude = meanLongitude + centre
        let omega = radians(125.04 - 1934.136 * t)
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(omega)
        declinationDegrees = SolarCalculator.degrees(asin(sin(radians(obliquity)) * sin(radians(apparentLongitude))))
        let y = pow(tan(radians(obliquity / 2)), 2)
        let l0 = radians(meanLongitude)
        let m = radians(meanAnomaly)
        let e = eccentricity
        equationOfTimeMinutes = 4 * SolarCalculator.degrees(
            y * sin(2 * l0) - 2 * e * sin(m) + 4 * e * y * sin(m) * cos(2 * l0)
                - 0.5 * y * y * sin(4 * l0) - 1.25 * e * e * sin(2 * m))
    }
}
