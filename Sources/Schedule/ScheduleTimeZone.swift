#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The zone a schedule's wall-clock times are read in: `schedule_timezone: Europe/Berlin` from the
/// system's tzdata (/usr/share/zoneinfo), or the system's own zone ($TZ, else /etc/localtime).
public struct ScheduleTimeZone: Sendable, Equatable, CustomStringConvertible {
    /// `Europe/Berlin`, or `UTC`; for a system zone that names no file, `system`.
    public var identifier: String
    private var rules: TZifFile

    public static let zoneinfoDirectory = "/usr/share/zoneinfo"

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        /// No such zone in tzdata (or a name that could not be one).
        case unknown(String)
        /// The file is there but is not a compiled zone.
        case unreadable(path: String)

        public var description: String {
            switch self {
            case .unknown(let name):
                return "`\(name)` is not a time zone in \(ScheduleTimeZone.zoneinfoDirectory) (expected an IANA name such as Europe/Berlin or UTC)"
            case .unreadable(let path):
                return "\(path) is not a compiled time zone (TZif) file"
            }
        }
    }

    /// A zone by its IANA name, read from tzdata.
    public init(identifier: String) throws(LoadError) {
        // A name is letters, digits and `/_-+`; never a path that climbs out of the directory.
        let allowed = identifier.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_-+".unicodeScalars.contains($0))
        }
        guard !identifier.isEmpty, allowed, !identifier.hasPrefix("/"), !identifier.contains("..") else {
            throw .unknown(identifier)
        }
        let path = "\(Self.zoneinfoDirectory)/\(identifier)"
        guard let bytes = Self.readFile(path) else { throw .unknown(identifier) }
        guard let rules = try? TZifFile(bytes: bytes) else { throw .unreadable(path: path) }
        self.identifier = identifier
        self.rules = rules
    }

    /// The system's zone, as the C library picks it: `$TZ` when it names a zone file, else
    /// /etc/localtime, else UTC.
    public static func system() -> ScheduleTimeZone {
        if let variable = getenv("TZ") {
            var name = String(cString: variable)
            if name.hasPrefix(":") { name.removeFirst() }
            if let zone = try? ScheduleTimeZone(identifier: name) { return zone }
        }
        if let bytes = readFile("/etc/localtime"), let rules = try? TZifFile(bytes: bytes) {
            return ScheduleTimeZone(identifier: localtimeName() ?? "system", rules: rules)
        }
        return .utc
    }

    public static let utc = ScheduleTimeZone(
        identifier: "UTC", rules: TZifFile(transitions: [], offsetsAfter: [], initialOffset: 0, footer: nil))

    private init(identifier: String, rules: TZifFile) {
        self.identifier = identifier
        self.rules = rules
    }

    public var description: String { identifier }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: WallTime) -> Int {
        rules.offset(at: instant.secondsSince1970)
    }

    /// The local date and time of day at `instant`.
    public func local(_ instant: WallTime) -> (date: CivilDate, time: LocalTime) {
        let local = instant.secondsSince1970 + Int64(offset(at: instant))
        let days = local.floorDivided(by: 86_400)
        return (CivilDate(daysSince1970: days), LocalTime(secondsOfDay: Int(local - days * 86_400)))
    }

    /// The instant a wall clock in this zone shows `seconds` after midnight of `date` (seconds may
    /// be 86 400: the next midnight). A time that does not exist that day (skipped by a
    /// spring-forward) is the first instant after the gap; a time that occurs twice (a fall-back)
    /// is its first occurrence.
    public func instant(on date: CivilDate, secondsOfDay seconds: Int) -> WallTime {
        let local = date.daysSince1970 * 86_400 + Int64(seconds)
        // A zone's offset changes at most once within two days around any instant it is used at.
        let offsetBefore = rules.offset(at: local - 86_400 - 14 * 3600)
        let offsetAfter = rules.offset(at: local + 86_400 + 14 * 3600)
        let candidates = [local - Int64(offsetBefore), local - Int64(offsetAfter)]
            .filter { Int64(rules.offset(at: $0)) == local - $0 }
        if let first = candidates.min() { return WallTime(secondsSince1970: first) }
        // In a gap: the transition instant, the first whose offset is `offsetAfter`.
        var low = min(local - Int64(offsetBefore), local - Int64(offsetAfter))
        var high = max(local - Int64(offsetBefore), local - Int64(offsetAfter))
        while low < high {
            let middle = low + (high - low) / 2
            if rules.offset(at: middle) == offsetAfter { high = middle } else { low = middle + 1 }
        }
        return WallTime(secondsSince1970: low)
    }

    /// `Europe/Berlin` from the /etc/localtime symlink's target, when it is one.
    private static func localtimeName() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let range = target.firstRange(of: "zoneinfo/") else { return nil }
        return String(target[range.upperBound...])
    }

    /// A small file's bytes, or nil when it cannot be read (missing, a directory, unreadable).
    private static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
        return nil
    }
}
