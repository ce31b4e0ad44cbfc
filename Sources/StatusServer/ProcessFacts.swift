#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The usual `process_*` metrics of a Prometheus client, read from /proc/self on Linux.
struct ProcessFacts: Sendable {
    var cpuSeconds = 0.0
    var residentBytes = 0.0
    var virtualBytes = 0.0
    var startTimeSeconds = 0.0
    var openFileDescriptors = 0.0
    var maxFileDescriptors = 0.0
    var threads = 0.0

    /// Reads them now; a field /proc does not give stays 0.
    static func read(startUnixSeconds: Double) -> ProcessFacts {
        var facts = ProcessFacts(startTimeSeconds: startUnixSeconds)
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = text(of: "/proc/self/stat"), let close = stat.lastIndex(of: ")") {
            // Fields after the command name (which may hold spaces): state is field 3.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            func field(_ number: Int) -> Double { Double(fields.count > number - 3 ? fields[number - 3] : "") ?? 0 }
            facts.cpuSeconds = (field(14) + field(15)) / max(ticks, 1)
            facts.threads = field(20)
            facts.virtualBytes = field(23)
            facts.residentBytes = field(24) * pageSize
        }
        if let directory = opendir("/proc/self/fd") {
            var count = 0
            while readdir(directory) != nil { count += 1 }
            closedir(directory)
            // ".", ".." and the directory's own descriptor.
            facts.openFileDescriptors = Double(max(0, count - 3))
        }
        // From /proc rather than getrlimit(2): the shipped unit's syscall filter (~@resources)
        // refuses prlimit64.
        if let limits = text(of: "/proc/self/limits"),
            let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        {
            let fields = line.dropFirst("Max open files".count).split(separator: " ")
            facts.maxFileDescriptors = fields.first.flatMap { Double($0) } ?? 0
        }
        return facts
    }

    private static func text(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
