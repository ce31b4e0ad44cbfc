/// A place commands can be run in by putting `execPrefix` in front of them: a test's network
/// namespace (`ip netns exec NAME`). A class, so whoever runs something in it can keep it alive.
public protocol CommandPrefixing: AnyObject {
    var execPrefix: [String] { get }
}
