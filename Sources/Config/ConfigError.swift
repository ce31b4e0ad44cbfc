/// A config that cannot be used, with every problem found in it (never only the first).
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// EX_CONFIG from sysexits.h: `camcast check-config` and the daemon exit with it on any problem,
    /// and systemd's `RestartPreventExitStatus=78` stops a restart loop on a broken file.
    public static let exitCode: Int32 = 78

    public var problems: [ConfigProblem]

    public init(problems: [ConfigProblem]) {
        self.problems = problems
    }

    /// One problem per line, in file order.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
