/// One thing wrong with an `EncoderSettings`, naming the setting, the bad value and what is allowed,
/// so a config error can be reported in one line (design.md invariant 7).
public struct EncoderSettingsProblem: Sendable, Hashable, CustomStringConvertible {
    /// The setting's key path, e.g. "encoder.profile".
    public var setting: String
    /// The rejected value as written.
    public var value: String
    /// What would have been accepted.
    public var allowed: String

    public init(setting: String, value: String, allowed: String) {
        self.setting = setting
        self.value = value
        self.allowed = allowed
    }

    /// The problem without the key path, for a report that names the key itself.
    public var message: String {
        "\(value) is not allowed (\(allowed))"
    }

    public var description: String {
        "\(setting): \(message)"
    }
}
