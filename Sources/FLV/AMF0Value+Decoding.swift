extension AMF0Value {
    /// Decodes exactly one value from the start of `bytes`; trailing bytes are ignored.
    public static func decode(from bytes: some Collection<UInt8>) throws(FLVError) -> AMF0Value {
        var decoder = AMF0Decoder(bytes)
        return try decoder.decode()
    }
}
