/// Something the test harness could not do (start a server, run a tool), said in one line.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
