import Foundation
import TestSupport

/// A FUSE mount whose server never answers, the test's dead NFS server: every look into it
/// (stat, mkdir, open) waits, killable only, as on a hard NFS mount whose server is gone. The
/// test holds the /dev/fuse descriptor and never reads it, so not even the kernel's INIT is
/// answered. `revive` aborts the connection: waiting calls then fail (ENOTCONN) and return.
/// Root only (mount(2)); no FUSE library or helper is needed.
final class DeadMount {
    let directory: URL
    private var device: Int32

    static var isPossible: Bool { geteuid() == 0 && FileManager.default.fileExists(atPath: "/dev/fuse") }

    init(_ name: String) throws {
        directory = try Project.scratchDirectory(name)
        device = open("/dev/fuse", O_RDWR | O_CLOEXEC)
        guard device >= 0 else { throw HarnessError("open /dev/fuse: \(String(cString: strerror(errno)))") }
        let options = "fd=\(device),rootmode=40000,user_id=0,group_id=0"
        guard mount("camcast-dead", directory.path, "fuse", UInt(MS_NOSUID | MS_NODEV), options) == 0 else {
            let reason = String(cString: strerror(errno))
            close(device)
            throw HarnessError("mount fuse at \(directory.path): \(reason)")
        }
    }

    /// The server "comes back" as an error: calls waiting on the mount return (ENOTCONN).
    func revive() {
        guard device >= 0 else { return }
        close(device)
        device = -1
    }

    /// Aborts the connection and takes the mount away (lazily: a call still inside lets go).
    func remove() {
        revive()
        _ = umount2(directory.path, Int32(MNT_DETACH))
    }
}
