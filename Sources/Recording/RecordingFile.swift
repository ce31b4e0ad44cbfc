import Media
import Outputs

#if canImport(Glibc)
import Glibc
#endif

/// The segment recorder (behind the outage recorder in `mode: outage`) as the file of a
/// `ContainerWriter`: owned by that thread alone, so no lock is held while a segment is written
/// or synced. A full disk does not end the output: the recorder pauses and resumes by itself.
final class RecordingFile: ContainerFile, @unchecked Sendable {
    // @unchecked: used by the writer thread alone once started (see ContainerFile), which
    // `confinement` asserts on each call in debug builds; the recorders it holds are not
    // Sendable, so they reach no other thread but through it.
    let confinement = ThreadConfinement("the recording's writer")
    private let recorder: SegmentRecorder
    private let outage: OutageRecorder?
    /// The folders the output's open created, outermost first.
    private let madeDirectories: [String]

    init(recorder: SegmentRecorder, outage: OutageRecorder?, madeDirectories: [String] = []) {
        self.recorder = recorder
        self.outage = outage
        self.madeDirectories = madeDirectories
    }

    /// Every picture the thread took in counts (written, kept in an outage pre-roll, or passed
    /// over while paused): the status line's "out" rate says the thread keeps up.
    func write(_ packet: MediaPacket) throws(OutputFailure) -> Bool {
        confinement.assertOnOwner("a recording's write")
        if packet.mediaKind == .video, packet.isKeyframe { recorder.sampleFreeBytes() }
        if let outage { outage.handle(packet) } else { recorder.handle(packet) }
        return packet.mediaKind == .video
    }

    func end(_ ending: ContainerEnding) {
        confinement.assertOnOwner("a recording's end")
        switch ending {
        case .abandon:
            recorder.abandon()
        case .discardIfUnused where !recorder.hasWritten:
            // A run that did not start: nothing of it stays, and no retention sweep runs for it.
            recorder.abandon()
            // rmdir(2) only ever removes an empty folder, and these are the ones this open made.
            for folder in madeDirectories.reversed() { rmdir(folder) }
        case .finish, .discardIfUnused:
            if let outage { outage.finish() } else { recorder.finish() }
        }
    }
}
