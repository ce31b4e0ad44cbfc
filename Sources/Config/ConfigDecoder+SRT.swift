import RTMPAddress

/// An `srt://` output and its keys: `latency_ms`, `passphrase_file` or `passphrase_env`, `pbkeylen`,
/// `streamid`.
extension ConfigDecoder {
    static let srtKeys = ["latency_ms", "passphrase_file", "passphrase_env", "pbkeylen", "streamid"]

    mutating func srtOutput(
        index: Int, url: (text: String, at: SourceLocation), options: [(key: String, entry: (text: String?, at: SourceLocation))],
        urlKey: String = "url"
    ) -> CamcastConfig.OutputConfig? {
        let itemPath = "outputs[\(index)]"
        var config: CamcastConfig.SRTOutputConfig
        do {
            config = CamcastConfig.SRTOutputConfig(url: try SRTURL(parsing: url.text))
        } catch {
            // Quoted masked as an RTMP URL would be: a query someone wrote there may hold a secret.
            report("\(itemPath).\(urlKey)", at: url.at, "\(ValueText.quoted(RTMPURL.redact(url.text))) \(error)")
            return nil
        }
        var valid = true
        for (key, entry) in options {
            let keyPath = "\(itemPath).\(key)"
            guard let text = entry.text, !text.isEmpty else {
                report(keyPath, at: entry.at, "has no value (\(Self.srtExpected[key] ?? "")); leave the key out for the default")
                valid = false
                continue
            }
            switch key {
            case "latency_ms":
                switch ConfigField.integer(text, in: 20...8000) {
                case .value(let milliseconds): config.latencyMilliseconds = milliseconds
                case .problem(let message):
                    report(keyPath, at: entry.at, message)
                    valid = false
                }
            case "pbkeylen":
                guard let length = Int(text), [16, 24, 32].contains(length) else {
                    report(keyPath, at: entry.at, "\(ValueText.quoted(text)) is not an AES key length (allowed: 16, 24 or 32 bytes)")
                    valid = false
                    continue
                }
                config.keyLength = length
            case "passphrase_file":
                guard text.hasPrefix("/") else {
                    report(keyPath, at: entry.at, "\(ValueText.quoted(text)) is not an absolute path (expected a file holding the passphrase, mode 0600)")
                    valid = false
                    continue
                }
                config.passphraseFile = text
            case "passphrase_env":
                guard Self.isEnvironmentVariableName(text) else {
                    report(keyPath, at: entry.at, "\(ValueText.quoted(text)) is not an environment variable's name (letters, digits and `_`, not first a digit)")
                    valid = false
                    continue
                }
                config.passphraseVariable = text
            default:  // streamid
                guard text.utf8.count <= 512, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    report(keyPath, at: entry.at, "is not a stream id (at most 512 bytes, no control characters)")
                    valid = false
                    continue
                }
                config.streamID = text
            }
        }
        if config.passphraseFile != nil, config.passphraseVariable != nil, let second = options.last(where: { $0.key.hasPrefix("passphrase_") }) {
            report("\(itemPath).\(second.key)", at: second.entry.at, "give the passphrase once: passphrase_file or passphrase_env, not both")
            valid = false
        }
        if config.passphraseFile == nil, config.passphraseVariable == nil, let keyLength = options.first(where: { $0.key == "pbkeylen" }) {
            report("\(itemPath).pbkeylen", at: keyLength.entry.at, "only applies with passphrase_file or passphrase_env (encryption)")
            valid = false
        }
        return valid ? .srt(config) : nil
    }

    /// A name a systemd EnvironmentFile and a shell can both set.
    static func isEnvironmentVariableName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    static let srtExpected = [
        "latency_ms": "expected an integer 20…8000, default 500",
        "passphrase_file": "expected an absolute path to a file holding the passphrase, mode 0600",
        "passphrase_env": "expected the name of an environment variable holding the passphrase, such as CAMCAST_SRT_PASSPHRASE",
        "pbkeylen": "expected 16, 24 or 32, default 16",
        "streamid": "expected the stream id the server routes by, such as publish:cam1",
    ]
}
