/// Where a value was written: a line and column in the config file, or a flag or environment
/// variable (no line). Problems point here.
struct SourceLocation: Equatable {
    var origin: String
    var line: Int?
    var column: Int?
}
