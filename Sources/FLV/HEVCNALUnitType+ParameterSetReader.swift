import Media

extension HEVCNALUnitType {
    /// The RBSP reader for a parameter set of this type: the NAL unit after its two header
    /// bytes, with errors that name the set. Throws `notAnHEVCParameterSet` if `nalUnit` is too
    /// short for a header or has another type, and `malformedHEVCParameterSet` if its
    /// nuh_layer_id is not 0 (multi-layer streams have other syntax; Camcast's encoder makes none).
    func parameterSetReader(for nalUnit: [UInt8]) throws(FLVError) -> RBSPBitReader {
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
