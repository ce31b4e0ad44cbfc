import TestSupport

/// `RTMPServer(namespace:)` runs nginx inside the namespace and keeps it alive until nginx is stopped.
extension NetworkNamespace: CommandPrefixing {}
