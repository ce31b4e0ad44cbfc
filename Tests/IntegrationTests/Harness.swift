import Foundation
import Testing

// Project, ProcessRunner, RTMPServer and ProbedVideo are shared with the other test targets: TestSupport.

/// Which real parts this machine has. With CAMCAST_TEST_REQUIRE_INTEGRATION=1 (the test command sets it)
/// the integration tests run regardless, so a missing part fails loudly instead of skipping.
enum Environment {
    static let requireIntegration = ProcessInfo.processInfo.environment["CAMCAST_TEST_REQUIRE_INTEGRATION"] == "1"

    static func hasExecutable(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    static var hasRTMPServerParts: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/nginx/modules/ngx_rtmp_module.so") && hasExecutable("nginx")
            && hasExecutable("ffprobe") && hasExecutable("ffmpeg")
    }

    static var rtmpIntegrationEnabled: Bool { requireIntegration || hasRTMPServerParts }
    static let rtmpSkipReason: Comment =
        "needs nginx, libnginx-mod-rtmp and ffmpeg (scripts/install-deps); set CAMCAST_TEST_REQUIRE_INTEGRATION=1 to fail instead of skipping"
}
