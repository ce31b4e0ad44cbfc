import Media

/// `interface:` or `source_address:` on a network output (issue 43): the uplink its connection
/// leaves by. A name that can never be an interface, or an address that is not a literal, is a
/// config problem; an interface that is merely absent or down is waited for at run time.
extension ConfigDecoder {
    static let uplinkKeys = ["interface", "source_address"]

    /// Checks the uplink keys of `output` (already decoded from item `index`) and stores the binding.
    /// `itemPath`: where the keys were written when not at the item itself (a leg of `urls:`).
    mutating func setUplink(
        _ options: [(key: String, entry: (text: String?, at: SourceLocation))], of output: CamcastConfig.OutputConfig, index: Int,
        itemPath: String? = nil
    ) {
        guard let first = options.first else { return }
        let itemPath = itemPath ?? "outputs[\(index)]"
        switch output {
        case .rtmp, .srt, .group: break
        case .file, .record:
            report("\(itemPath).\(first.key)", at: first.entry.at, "only applies to a network output (an rtmp://, rtmps:// or srt:// `url`)")
            return
        }
        guard options.count == 1 else {
            report(itemPath, at: options[1].entry.at, "has both `interface` and `source_address`; bind the output by one of them")
            return
        }
        let keyPath = "\(itemPath).\(first.key)"
        let text = first.entry.text ?? ""
        if first.key == "interface" {
            if let problem = Uplink.interfaceNameProblem(text) {
                report(keyPath, at: first.entry.at, problem)
                return
            }
            config.outputUplinks[output] = .interface(text)
        } else {
            guard !text.isEmpty else {
                report(keyPath, at: first.entry.at, "has no value (expected an IPv4 or IPv6 address of this machine, such as 192.0.2.10)")
                return
            }
            if let problem = Uplink.sourceAddressProblem(text) {
                report(keyPath, at: first.entry.at, problem)
                return
            }
            config.outputUplinks[output] = .sourceAddress(text)
        }
    }
}
