import Config

extension SettingsResolver {
    /// `--record DIR`: a recording with the defaults beside whatever outputs there are; one that
    /// records into the same folder already (from the config) is kept as it is.
    static func addRecording(_ directory: String, to config: inout CamcastConfig) throws(ConfigError) {
        guard !directory.isEmpty else {
            throw ConfigError(problems: [
                ConfigProblem(origin: "command line", keyPath: "--record", message: "has no value (expected the folder to record into)")
            ])
        }
        let exists = config.outputs.contains { if case .record(let record) = $0 { record.directory == directory } else { false } }
        if !exists { config.outputs.append(.record(CamcastConfig.RecordConfig(directory: directory))) }
    }
}
