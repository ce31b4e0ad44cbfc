/// Where a server's reconnect request sends the publisher (Enhanced RTMP v2, "Reconnect Request":
/// the info object's `tcUrl`, "absolute or relative URI reference of the server to which to
/// reconnect … resolved relative to the tcUrl for the current connection"; without one, the current
/// address). The stream key, its query and everything Camcast checks of a URL stay as configured:
/// the result goes through the same parser as the config's URL.
extension RTMPURL {
    /// Why a request's `tcUrl` is not followed. No case carries the server's text (it is shown
    /// redacted by the caller, if at all).
    public enum ReconnectRefusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not an `rtmp[s]://host[:port]/app` reference Camcast can publish to.
        case invalid(RTMPURLError)
        /// `rtmp://` named while publishing over `rtmps://`: the stream key would cross the
        /// network in the clear.
        case tlsDowngrade

        public var description: String {
            switch self {
            case .invalid(let problem): "the tcUrl is not a usable rtmp[s]:// address: \(problem)"
            case .tlsDowngrade: "the tcUrl names plain rtmp:// for an rtmps:// stream; Camcast does not drop TLS"
            }
        }
    }

    /// This output's URL moved to `tcUrl` (absolute `rtmp[s]://host[:port]/app`, network-path
    /// `//host[:port]/app`, or path `/app`), or to itself for nil.
    public func reconnectTarget(tcUrl: String?) throws(ReconnectRefusal) -> RTMPURL {
        guard let tcUrl else { return self }
        var reference = Substring(tcUrl)
        // A trailing slash ends the application, it does not start an empty stream name.
        while reference.count > 1, reference.last == "/" { reference = reference.dropLast() }
        let absolute: String
        if reference.hasPrefix("//") {
            absolute = "\(scheme):\(reference)"
        } else if reference.hasPrefix("/") {
            absolute = "\(scheme)://\(hostForURL):\(port)\(reference)"
        } else {
            absolute = String(reference)
        }
        let keyElement = "/\(streamKey)" + (query.map { "?" + $0 } ?? "")
        let target: RTMPURL
        do throws(RTMPURLError) {
            // The application comes from the reference whole: a query in it stays in it, as in
            // the configured URL (`live2?backup=1`).
            guard !absolute.contains("#") else { throw .emptyPathElement }
            target = try RTMPURL(parsing: absolute + keyElement)
        } catch .missingStreamKey {
            // The key moved into the application's place: the reference named no application
            // (and the error would name the key).
            throw .invalid(.missingApp)
        } catch {
            throw .invalid(error)
        }
        guard target.streamKey == streamKey else { throw .invalid(.emptyPathElement) }
        if usesTLS && !target.usesTLS { throw .tlsDowngrade }
        return target
    }
}
