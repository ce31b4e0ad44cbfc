extension FLVMuxer {
    /// The AAC sequence header: AACPacketType 0 whose data is the AudioSpecificConfig.
    public func audioSequenceHeaderTag(_ config: AudioSpecificConfig, timestamp: UInt32) throws(FLVError) -> FLVTag {
        try audioSequenceHeaderTag(configuration: config.encoded(), timestamp: timestamp)
    }

    /// The same from the config's bytes as an encoder gave them (checked by parsing them).
    public func audioSequenceHeaderTag(configuration bytes: [UInt8], timestamp: UInt32) throws(FLVError) -> FLVTag {
        _ = try AudioSpecificConfig(parsing: bytes)
        let body = FLVAudioTagBody(aacPacketType: .sequenceHeader, data: bytes)
        return try FLVTag(type: .audio, timestamp: timestamp, body: body.encoded())
    }

    /// One raw AAC frame (no ADTS header) at its presentation time; AAC has no composition offset.
    public func audioTag(aacFrame: [UInt8], timestamp: UInt32) throws(FLVError) -> FLVTag {
        let body = FLVAudioTagBody(aacPacketType: .raw, data: aacFrame)
        return try FLVTag(type: .audio, timestamp: timestamp, body: body.encoded())
    }
}
