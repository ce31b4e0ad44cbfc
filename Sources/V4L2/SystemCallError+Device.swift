#if canImport(Glibc)
import Glibc
#endif
import Media

extension SystemCallError {
    /// The device node is no longer there: unplugged, or the driver unregistered it.
    public var meansDeviceGone: Bool { errno == ENODEV || errno == ENOENT || errno == ENXIO }
}
