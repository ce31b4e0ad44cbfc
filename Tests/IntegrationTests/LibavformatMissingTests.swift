import Foundation
import TestSupport
import Testing

/// A machine without a loadable libavformat, made here by bind-mounting /dev/null over the library
/// in a mount namespace of camcast's own (the machine's file stays untouched): a recording output is
/// refused by check-config with the loader's reason in words and exit 78, while the same file checks
/// clean outside. The words are those of CAVFormat's one-time load (shim.h), read after it.
@Suite(.enabled(if: Environment.requireIntegration || geteuid() == 0,
                "needs root (unshare -m, mount --bind); CAMCAST_TEST_REQUIRE_INTEGRATION=1 fails instead"))
struct LibavformatMissingTests {
    /// The installed libavformat the shim loads (libavformat.so.59 on Debian 12), found by name
    /// rather than by a soname written here.
    static func installedLibrary() -> String? {
        let root = URL(fileURLWithPath: "/usr/lib")
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.hasSuffix("-linux-gnu") }
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/\(folder)")) ?? []
            if let name = names.first(where: { $0.hasPrefix("libavformat.so.") && Int($0.dropFirst("libavformat.so.".count)) != nil }) {
                return "/usr/lib/\(folder)/\(name)"
            }
        }
        return nil
    }

    @Test func aRecordingOutputWithoutLibavformatIsRefusedInWords() throws {
        let directory = try Project.scratchDirectory("no-libavformat")
        // One recording output (RecordingTests' file), nothing else that needs a library.
        let config = try RecordingTests.config(directory, "")
        let library = try #require(Self.installedLibrary(), "no libavformat.so.N in /usr/lib/*-linux-gnu (scripts/install-deps)")

        let command = "mount --bind /dev/null \"$1\" && shift && exec \"$@\""
        let hidden = try ProcessRunner.run(
            "/usr/bin/unshare",
            ["-m", "--propagation", "private", "/bin/sh", "-c", command, "sh", library, Project.camcastBinary.path,
             "check-config", config.path],
            timeout: 60)
        #expect(hidden.status == 78, "\(hidden.stderr)")
        let expected = "outputs[0]: recording needs libavformat (Debian package libavformat59) and it could not be loaded: "
        let line = hidden.stderr.split(separator: "\n").first { $0.contains(expected) }.map(String.init)
        #expect(line != nil, "\(hidden.stderr)")
        // dlopen's own reason follows, naming the library it could not load.
        #expect(line?.hasSuffix("libavformat.so.\(library.split(separator: ".").last ?? ""): file too short") == true, "\(line ?? "")")

        let outside = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", config.path], timeout: 60)
        #expect(outside.status == 0, "\(outside.stderr)")
    }
}
