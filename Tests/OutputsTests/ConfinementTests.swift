import FLV
import Foundation
import Logging
import Media
import Synchronization
import TestSupport
import Testing

@testable import Outputs

/// Debug builds check that what is confined to one thread stays there (issue 39 #6): a file
/// output's file on its writer thread, a reconnect's publisher on the connect thread until the
/// publisher thread takes it over.
@Suite struct OutputsConfinementTests {
    #if DEBUG
    @Test("a file output's file answers its writer thread; a call from another thread fails the debug check")
    func aContainerFileBelongsToItsWriterThread() throws {
        let directory = try FLVFileOutputTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cam.flv").path
        let caught = CaughtFailures()
        // `onOpened` runs after `start` returned: the test waits for it.
        let opened = Handoff<FLVContainerFile>()
        let writer = ContainerWriter(name: path, logger: FLVFileOutputTests.logger, requestKeyframe: {})
        let start = try writer.start(
            opening: { () throws(OutputFailure) -> FLVContainerFile in
                do {
                    let file = try FLVContainerFile(
                        path: path, metadata: FLVFileOutputTests.metadata, hasAudio: false, logger: FLVFileOutputTests.logger, meter: nil)
                    file.confinement.check.catchFailures { caught.add($0) }
                    return file
                } catch {
                    throw OutputFailure(output: path, reason: "\(error)")
                }
            },
            // On the writer thread: its own call passes.
            onOpened: { file in
                _ = file.currentPath
                _ = opened.hand(file)
            },
            onFailure: { _ in })
        #expect(start == .opened)
        let file = try #require(opened.value(within: 10))
        #expect(caught.all.isEmpty, "\(caught.all)")

        // What the capture thread would do if it wrote to the file itself.
        _ = file.currentPath
        #expect(caught.all == ["an FLV file's path ran off the file output's writer's thread"])
        // The end runs on the writer thread: nothing more is caught.
        #expect(writer.stop(.finish(endTime: 0), drainSeconds: 1))
        #expect(caught.all.count == 1)
    }

    @Test("a reconnect's publisher: the connect thread ends its connect, the publisher thread takes it over after; either out of turn fails the debug check")
    func aNewConnectionChangesHandsOnce() throws {
        let server = FakeServer([])
        let caught = CaughtFailures()
        /// An attempt whose connect thread took the publisher and, if `ending`, ended the connect.
        func attempt(ending: Bool) throws -> RTMPOutput.NewConnectionAttempt {
            let attempt = RTMPOutput.NewConnectionAttempt(FakePublisher(server: server))
            attempt.confinement.check.catchFailures { caught.add($0) }
            let connect = try DedicatedThread {
                _ = attempt.connectOnThisThread()
                if ending { attempt.end(connected: true) }
            }
            connect.join()
            return attempt
        }

        // In turn: the connect thread ended it, then the publisher thread takes it over.
        _ = try attempt(ending: true).takeOver()
        #expect(caught.all.isEmpty, "\(caught.all)")

        // The publisher thread may not end the connect for it, nor take the publisher while it runs.
        try attempt(ending: false).end(connected: true)
        _ = try attempt(ending: false).takeOver()
        #expect(caught.all == [
            "ending a new connection's connect ran off the new connection's owner's thread",
            "a new connection's publisher taken over while its connect runs",
        ])
    }
    #endif
}
