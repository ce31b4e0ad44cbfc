import Encoder
import Logging
import Media
import Telemetry

/// A `.h264`/`.h265` output's open file, owned by its `ContainerWriter` thread. `AnnexBWriter`
/// has a lock of its own, but only this thread ever takes it, so no other thread waits behind
/// a write.
final class AnnexBContainerFile: ContainerFile, @unchecked Sendable {
    // @unchecked: used by the writer thread alone once started (see ContainerFile), which
    // `confinement` asserts on each call in debug builds.
    let confinement = ThreadConfinement("the file output's writer")
    private let writer: AnnexBWriter
    private let logger: Logger
    private let meter: OutputMeter?

    init(writer: AnnexBWriter, logger: Logger, meter: OutputMeter?) {
        self.writer = writer
        self.logger = logger
        self.meter = meter
    }

    func write(_ packet: MediaPacket) throws(OutputFailure) -> Bool {
        confinement.assertOnOwner("an Annex-B file's write")
        do {
            guard try writer.write(packet) else { return false }
            meter?.sentBytes.add(packet.units.reduce(0) { $0 + 4 + $1.count }, ordering: .relaxed)
            return true
        } catch {
            // A full disk: the file ends where it stands.
            writer.close()
            throw OutputFailure(output: writer.path, reason: "\(error)")
        }
    }

    func end(_ ending: ContainerEnding) {
        confinement.assertOnOwner("an Annex-B file's end")
        writer.close()
        if ending == .discardIfUnused, writer.framesWritten == 0 {
            UnusedFile.remove(writer.path)
            logger.info("removed the Annex-B file of a run that did not start", metadata: ["path": "\(writer.path)"])
        }
    }
}
