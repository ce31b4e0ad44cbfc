import Media

/// Which output a failure handler belongs to: the handler is made before the output, so the
/// output is filled in right after. Compared by object identity (two RTMP outputs may look alike
/// once their stream keys are masked).
final class OutputIdentity: Sendable {
    private let identifier = Lock<ObjectIdentifier?>(nil)

    func set(_ output: any StreamOutput) {
        identifier.withLock { $0 = ObjectIdentifier(output) }
    }

    func `is`(_ output: any StreamOutput) -> Bool {
        identifier.withLock { $0 } == ObjectIdentifier(output)
    }
}
