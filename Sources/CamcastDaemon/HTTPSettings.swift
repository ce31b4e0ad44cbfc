import Config
import StatusServer

/// The operator's HTTP endpoint (config `http:`): where it listens and who may read it.
public struct HTTPSettings: Sendable, Equatable {
    /// Address to listen on; loopback unless credentials are set.
    public var host: String
    public var port: Int
    /// HTTP Basic's users (`http.credentials_file`); nil serves loopback without a password.
    public var credentials: BasicCredentials?

    public init(host: String, port: Int, credentials: BasicCredentials? = nil) {
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    struct Problem: Error {
        var keyPath: String
        var message: String
    }

    /// nil when `http.listen` is empty (off). Reads the credentials file (also on SIGHUP, as a
    /// reload resolves the settings again); refuses a non-loopback address without it.
    init?(_ config: CamcastConfig.HTTPConfig) throws(Problem) {
        guard let address = config.address else { return nil }
        host = address.host
        port = address.port
        if let path = config.credentialsFile {
            let text = try Self.readCredentials(path)
            let parsed = BasicCredentials(lines: text)
            guard !parsed.isEmpty else {
                throw Problem(keyPath: "http.credentials_file", message: "\(path) holds no user:password line")
            }
            credentials = parsed
        } else {
            credentials = nil
            guard CamcastConfig.HTTPConfig.isLoopback(address.host) else {
                throw Problem(
                    keyPath: "http.listen",
                    message: "\(config.listen) is not a loopback address; serving it needs http.credentials_file "
                        + "(HTTP Basic), or listen on 127.0.0.1")
            }
        }
    }

    private static func readCredentials(_ path: String) throws(Problem) -> String {
        do {
            return try SecretFile.contents(of: path)
        } catch {
            throw Problem(keyPath: "http.credentials_file", message: error.message)
        }
    }

    var listen: StatusHTTPServer.Listen {
        StatusHTTPServer.Listen(host: host, port: port, credentials: credentials)
    }
}
