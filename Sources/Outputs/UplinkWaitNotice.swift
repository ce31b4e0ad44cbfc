/// A network output whose uplink cannot carry a connection (`interface wwan0 is absent`) waits for
/// it like a server that is down, on the reconnect schedule; the log says so once, when the wait
/// begins or its reason changes (absent → down), not at every retry (issue 43).
struct UplinkWaitNotice {
    private var reported: String?

    /// Called with each failed attempt's uplink reason, or nil when the attempt failed otherwise.
    /// True when the caller should log `reason` now.
    mutating func isNews(_ reason: String?) -> Bool {
        defer { reported = reason }
        return reason != nil && reason != reported
    }
}
