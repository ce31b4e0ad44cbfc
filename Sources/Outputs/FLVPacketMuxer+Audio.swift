import FLV
import Media

extension FLVPacketMuxer {
    /// An AAC packet's tags: nothing before the video started; its sequence header first when it
    /// is the run's first audio or its AudioSpecificConfig changed; then the raw frame.
    mutating func audioTags(for packet: MediaPacket) throws(FLVError) -> [FLVTag] {
        latestAudioConfiguration = packet.decoderConfiguration
        let admission = gate.admit(packet)
        let timestamp = Self.timestamp(packet.dts)
        let frame = try FLVMuxer().audioTag(aacFrame: packet.units.first ?? [], timestamp: timestamp)
        switch admission {
        case .skip:
            return []
        case .pass, .start:
            return [frame]
        case .configurationChanged:
            return [try audioSequenceHeader(packet.decoderConfiguration, at: timestamp), frame]
        }
    }

    /// At a run's first keyframe: the AAC sequence header, if audio has been seen.
    mutating func audioSequenceHeaderAtStart(at timestamp: UInt32) throws(FLVError) -> [FLVTag] {
        guard let configuration = latestAudioConfiguration else { return [] }
        gate.audioConfigurationSent(configuration)
        return [try audioSequenceHeader(configuration, at: timestamp)]
    }

    private func audioSequenceHeader(_ configuration: DecoderConfiguration, at timestamp: UInt32) throws(FLVError) -> FLVTag {
        try FLVMuxer().audioSequenceHeaderTag(configuration: configuration.parameterSets.first ?? [], timestamp: timestamp)
    }
}
