internal import CAVCodec
import FLV
import Media

extension AVCodecEncoder {
    /// The parameter sets in an encoder's extradata, in configuration order, and the NAL length
    /// size its packets use if they are length-prefixed. Encoders write either Annex-B (libx264,
    /// nvenc, v4l2m2m) or an avcC/hvcC record (configurationVersion 1 as its first byte); both are
    /// read with the one parser of each (`AnnexBNALUnitParser`, FLV's decoder configuration records).
    static func headers(in extradata: [UInt8], codec: VideoCodec, encoder: String) throws(EncoderError) -> ([[UInt8]], Int?) {
        guard let first = extradata.first else { return ([], nil) }
        do {
            if first == 1 {
                switch codec {
                case .h264:
                    let record = try AVCDecoderConfigurationRecord(parsing: extradata)
                    guard let sps = record.sequenceParameterSets.first, let pps = record.pictureParameterSets.first else {
                        throw EncoderError.malformedOutput("avcodec:\(encoder)'s avcC extradata holds no SPS/PPS")
                    }
                    return ([sps, pps], Int(record.lengthSizeMinusOne) + 1)
                case .h265:
                    let record = try HEVCDecoderConfigurationRecord(parsing: extradata)
                    let sets = [HEVCNALUnitType.vps, .sps, .pps].compactMap { record.nalUnits(ofType: $0).first }
                    guard sets.count == 3 else { throw EncoderError.malformedOutput("avcodec:\(encoder)'s hvcC extradata lacks VPS/SPS/PPS") }
                    return (sets, Int(record.lengthSizeMinusOne) + 1)
                }
            }
            let units = try AnnexBNALUnitParser.units(in: extradata)
            guard let sets = codec.parameterSets(in: units) else {
                throw EncoderError.malformedOutput("avcodec:\(encoder)'s extradata holds \(units.count) NAL units but not every parameter set")
            }
            return (sets, nil)
        } catch let error as EncoderError {
            throw error
        } catch {
            throw .malformedOutput("avcodec:\(encoder)'s extradata does not parse: \(error)")
        }
    }

    /// One packet as the session's picture: its NAL units (Annex-B, or length-prefixed after an
    /// avcC extradata), pts/dts in milliseconds (the context's time base), and the keyframe flag.
    func output(from packet: UnsafeMutablePointer<AVPacket>) throws(EncoderError) -> EncoderBackendOutput {
        guard let data = packet.pointee.data, packet.pointee.size > 0 else { throw .malformedOutput("avcodec:\(name) returned an empty packet") }
        let bytes = UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))
        var units: [[UInt8]]
        do {
            let startCoded = bytes.count > 3 && bytes[0] == 0 && bytes[1] == 0 && (bytes[2] == 1 || bytes[2] == 0 && bytes[3] == 1)
            if !startCoded, let lengthSize, settings.codec == .h264 {
                units = try AVCCNALUnitParser.parse(bytes, lengthSize: lengthSize).map(\.bytes)
            } else {
                units = try AnnexBNALUnitParser.units(in: bytes)
            }
        } catch {
            throw .malformedOutput("avcodec:\(name) packet: \(error)")
        }
        // A key packet that is no IDR (an open-GOP recovery point) is no place for a viewer to start.
        let isKeyframe = cavcodec_packet_is_key(packet) != 0 && units.contains(where: isIDR)
        if isKeyframe, settings.codec.parameterSets(in: units) == nil, !headers.isEmpty {
            // With global headers the keyframes carry no parameter sets; put them back in front,
            // as the x264/x265 backends repeat them, so a raw .h264 file decodes from any IDR.
            let afterDelimiter = units.first.map { settings.codec.nalUnitType($0) == settings.codec.accessUnitDelimiterType } == true ? 1 : 0
            units.insert(contentsOf: headers, at: afterDelimiter)
        }
        let pts = packet.pointee.pts
        // AV_NOPTS_VALUE (INT64_MIN) for an encoder that does not reorder: dts is the pts then.
        let dts = packet.pointee.dts == Int64.min ? pts : packet.pointee.dts
        return EncoderBackendOutput(units: units, isKeyframe: isKeyframe, pts: pts, dts: dts)
    }

    private func isIDR(_ unit: [UInt8]) -> Bool {
        switch settings.codec {
        case .h264: settings.codec.nalUnitType(unit) == NALUnitType.idr.rawValue
        case .h265: HEVCNALUnitType(unit: unit)?.isIDR == true
        }
    }
}
