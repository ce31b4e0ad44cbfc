#if canImport(Glibc)
import Glibc
#endif
import Media
import Synchronization
import Testing

/// A stage's thread carries its name in the kernel (/proc/PID/task/TID/comm), where `ps -L`,
/// `top -H` and the graph test find it: cut to the kernel's 15 bytes at a character's boundary.
@Suite struct DedicatedThreadNameTests {
    /// What the kernel shows for a thread started with `name`, read from inside it.
    static func kernelName(startingWith name: String?) throws -> String {
        let seen = Mutex<String?>(nil)
        let thread = try DedicatedThread(name: name) {
            let file = open("/proc/thread-self/comm", O_RDONLY)
            defer { close(file) }
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(file, &bytes, bytes.count)
            let text = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
            seen.withLock { $0 = text.hasSuffix("\n") ? String(text.dropLast()) : text }
        }
        thread.join()
        return try #require(seen.withLock { $0 })
    }

    @Test func aNamedThreadShowsItsName() throws {
        #expect(try Self.kernelName(startingWith: "encoder") == "encoder")
        #expect(try Self.kernelName(startingWith: "rtmp send") == "rtmp send")
    }

    @Test func aLongNameIsCutToFifteenBytesAtACharacterBoundary() throws {
        #expect(try Self.kernelName(startingWith: "a-very-long-thread-name") == "a-very-long-thr")
        // "ü" is two bytes: fourteen letters and one "ü" would be 16, so the "ü" goes whole.
        #expect(try Self.kernelName(startingWith: "abcdefghijklmnü") == "abcdefghijklmn")
    }

    /// Linux gives a new thread its creator's name; an unnamed one keeps it.
    @Test func anUnnamedThreadKeepsItsCreatorsName() throws {
        let creator = try Self.kernelName(startingWith: "creator")
        #expect(creator == "creator")
        let inner = Mutex<String?>(nil)
        let outer = try DedicatedThread(name: "creator") {
            inner.withLock { $0 = try? Self.kernelName(startingWith: nil) }
        }
        outer.join()
        #expect(inner.withLock { $0 } == "creator")
    }
}
