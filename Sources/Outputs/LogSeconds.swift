/// How a network output's log lines give a span of time (a retry delay, how long a connection
/// lasted), whatever the transport: `1.25s`, two decimals being enough to read backoff growth.
enum LogSeconds {
    static func text(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)s"
    }
}
