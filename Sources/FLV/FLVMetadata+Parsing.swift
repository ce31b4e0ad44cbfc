extension FLVMetadata {
    private static let standardKeys: Set<String> = [
        "duration", "width", "height", "videodatarate", "framerate", "videocodecid", "encoder", "filesize",
    ]

    /// Parses a script-data tag body written as `scriptDataBody()` writes it. An anonymous object
    /// in place of the ECMA array is accepted too (some writers use one). Unknown fields land in
    /// `extraFields`; width, height, frame rate, data rate, codec id and encoder are required.
    public init(scriptDataBody body: some Collection<UInt8>) throws(FLVError) {
        var decoder = AMF0Decoder(body)
        guard try decoder.decode() == .string(Self.name) else { throw .notOnMetaData }
        let properties: [AMF0Property]
        switch try decoder.decode() {
        case .ecmaArray(let list), .object(let list): properties = list
        default: throw .notOnMetaData
        }
        let table = AMF0Value.ecmaArray(properties)

        func number(_ key: String) throws(FLVError) -> Double {
            guard let value = table[key]?.numberValue, value.isFinite else { throw .badMetadataField(key) }
            return value
        }
        func integer(_ key: String) throws(FLVError) -> Int {
            let value = try number(key)
            guard value >= 0, value <= Double(Int32.max), value.rounded() == value else {
                throw .badMetadataField(key)
            }
            return Int(value)
        }

        guard let codec = FLVMetadataVideoCodec(metadataValue: try number("videocodecid")) else {
            throw .badMetadataField("videocodecid")
        }
        guard let encoder = table["encoder"]?.stringValue else { throw .badMetadataField("encoder") }
        var fileSize: Double?
        if table["filesize"] != nil { fileSize = try number("filesize") }
        var duration = 0.0
        if table["duration"] != nil { duration = try number("duration") }
        let audio = table["audiocodecid"] == nil ? nil : try Audio(table: table)
        self.init(
            width: try integer("width"), height: try integer("height"),
            frameRate: try number("framerate"), videoDataRate: try number("videodatarate"),
            encoder: encoder,
            duration: duration,
            videoCodec: codec, fileSize: fileSize,
            extraFields: properties.filter { !Self.standardKeys.contains($0.key) && !(audio != nil && Audio.keys.contains($0.key)) },
            audio: audio)
    }

    /// Where, in an onMetaData body, the 8-byte doubles of the top-level number fields start,
    /// keyed by field name (first occurrence). The file writer uses this to patch `duration` and
    /// `filesize` in place once the file is complete.
    static func numberFieldOffsets(inScriptDataBody body: [UInt8]) throws(FLVError) -> [String: Int] {
        var decoder = AMF0Decoder(body)
        guard try decoder.decode() == .string(Self.name) else { throw .notOnMetaData }
        let marker = body.count > decoder.offset ? body[decoder.offset] : 0xFF
        if marker == AMF0Marker.ecmaArray.rawValue {
            try decoder.expectMarker(.ecmaArray)
            try decoder.skipU32()
        } else {
            try decoder.expectMarker(.object)
        }
        var offsets: [String: Int] = [:]
        while try !decoder.consumeObjectEnd() {
            let key = try decoder.decodeKey()
            let valueStart = decoder.offset
            if case .number = try decoder.decode(), offsets[key] == nil {
                offsets[key] = valueStart + 1  // past the marker byte
            }
        }
        return offsets
    }
}
