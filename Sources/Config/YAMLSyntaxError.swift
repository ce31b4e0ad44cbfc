/// Why libyaml (or the composer over it) could not turn a file into one document.
///
/// The texts are libyaml's own (`mapping values are not allowed in this context`); the config
/// turns each into one problem with its line. The offending line itself is never quoted: it can
/// hold a stream key.
enum YAMLSyntaxError: Error, Equatable {
    /// Bytes that are not text in the file's encoding; `characterOffset` counts Characters.
    case reader(problem: String, characterOffset: Int?)
    /// Scanner, parser or composer errors: what libyaml was doing (`context`) and what it found.
    case grammar(context: Context?, problem: String, mark: YAMLNode.Mark)
    /// Keys repeated in one map, in sorted order, and where the first of them first appears.
    case duplicateKeys(keys: [String], first: YAMLNode.Mark)
    case outOfMemory

    struct Context: Equatable {
        var text: String
        var mark: YAMLNode.Mark
    }
}
