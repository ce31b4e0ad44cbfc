import Foundation
import TestSupport
import Testing

/// Where the ALSA tests run: the host-side test boots the vivid VM (which can load `snd-aloop`; the
/// host has no sound devices) and runs this bundle inside it with the variable set.
enum ALSAVMEnvironment {
    static let insideVMVariable = "CAMCAST_TEST_IN_ALSA_VM"
    static var insideVM: Bool { ProcessInfo.processInfo.environment[insideVMVariable] == "1" }

    /// snd-aloop's card: what is played into device 0 comes out of device 1's capture.
    static let playbackDevice = "hw:Loopback,0,0"
    static let captureDevice = "hw:Loopback,1,0"
    /// The platform device the card hangs off: unbinding it removes the card as an unplug would.
    static let platformDevice = "snd_aloop.0"
    static let driverDirectory = "/sys/bus/platform/drivers/snd_aloop"

    /// Writes `value` to a sysfs file from a child shell (unbind blocks until the card's users
    /// have closed it, which the source under test does on its own thread).
    static func sysfsWrite(_ value: String, to path: String) throws {
        let finished = try ProcessRunner.run("/bin/sh", ["-c", "echo \(value) > \(path)"], timeout: 20)
        try #require(finished.status == 0, "echo \(value) > \(path) failed: \(finished.stderr)")
    }
}
