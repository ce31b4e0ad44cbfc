/// The nal_unit_type values of H.265 (ITU-T H.265 Table 7-1) that the FLV side needs: the
/// parameter sets a decoder configuration record carries, and the SEI it may carry. The type is
/// six bits of the two-byte NAL unit header: `(byte0 >> 1) & 0x3F`.
public enum H265NALUnitType: UInt8, Sendable, CaseIterable {
    case videoParameterSet = 32
    case sequenceParameterSet = 33
    case pictureParameterSet = 34
    case prefixSEI = 39
    case suffixSEI = 40

    /// The type field of a NAL unit (header included), or nil for an empty one.
    public static func rawType(of nalUnit: some Collection<UInt8>) -> UInt8? {
        nalUnit.first.map { $0 >> 1 & 0x3F }
    }

    /// The short name the H.265 spec uses: "VPS", "SPS", "PPS", "SEI".
    var name: String {
        switch self {
        case .videoParameterSet: "VPS"
        case .sequenceParameterSet: "SPS"
        case .pictureParameterSet: "PPS"
        case .prefixSEI, .suffixSEI: "SEI"
        }
    }

    /// The RBSP reader for a parameter set of this type: the NAL unit after its two header
    /// bytes, with errors that name the set. Throws `notAnHEVCParameterSet` if `nalUnit` is too
    /// short for a header or has another type, and `malformedHEVCParameterSet` if its
    /// nuh_layer_id is not 0 (multi-layer streams have other syntax; Camcast's encoder makes none).
    func reader(for nalUnit: [UInt8]) throws(FLVError) -> RBSPBitReader {
        guard nalUnit.count >= 2, let type = Self.rawType(of: nalUnit) else {
            throw .notAnHEVCParameterSet(expected: name, nalUnitType: nil)
        }
        guard type == rawValue else { throw .notAnHEVCParameterSet(expected: name, nalUnitType: type) }
        let layerID = (nalUnit[0] & 0x01) << 5 | nalUnit[1] >> 3
        let name = self.name
        guard layerID == 0 else { throw .malformedHEVCParameterSet("\(name): nuh_layer_id \(layerID), only 0 is supported") }
        return RBSPBitReader(nalPayload: nalUnit.dropFirst(2)) { .malformedHEVCParameterSet("\(name): \($0)") }
    }
}
