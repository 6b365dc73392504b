@testable import MeshBLE
import Testing

@Suite struct SMPPDUTests {
    let radio = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)
    let features = PairingFeatures(ioCapability: .keyboardOnly, authReq: [.bonding, .mitm, .secureConnections],
                                   initiatorKeys: [.encKey, .idKey], responderKeys: [.encKey, .idKey])

    private func block(_ byte: UInt8, _ count: Int = 16) -> [UInt8] { [UInt8](repeating: byte, count: count) }

    var everyPDU: [SMPPDU] {
        [
            .pairingRequest(features),
            .pairingResponse(PairingFeatures(ioCapability: .displayOnly, oobDataPresent: true, authReq: [.bonding, .mitm, .keypress, .ct2],
                                             maxKeySize: 7, initiatorKeys: [.signKey], responderKeys: [.linkKey])),
            .pairingConfirm(block(1)), .pairingRandom(block(2)), .pairingFailed(.confirmValueFailed),
            .encryptionInformation(ltk: block(3)), .centralIdentification(ediv: 0xBEEF, rand: 0x1122_3344_5566_7788),
            .identityInformation(irk: block(4)), .identityAddressInformation(radio),
            .identityAddressInformation(BDAddress(littleEndian: [6, 5, 4, 3, 2, 1], kind: .public)),
            .signingInformation(csrk: block(5)), .securityRequest([.bonding, .mitm, .secureConnections]),
            .pairingPublicKey(x: block(6, 32), y: block(7, 32)), .dhKeyCheck(block(8)), .keypressNotification(.digitEntered),
        ]
    }

    @Test func everyPDURoundTrips() throws {
        for pdu in everyPDU {
            let bytes = pdu.bytes
            #expect(bytes.first == pdu.code)
            #expect(bytes.count == 1 + (SMPPDU.parameterLength(of: pdu.code) ?? -1))
            #expect(try SMPPDU(bytes) == pdu)
        }
        #expect(Set(everyPDU.map(\.code)) == Set(1...14))
    }

    @Test func fieldsAreLittleEndianInSpecificationOrder() {
        // The Pairing Request a working central sends to a MeshCore radio.
        #expect(SMPPDU.pairingRequest(features).bytes == [0x01, 0x02, 0x00, 0x0D, 0x10, 0x03, 0x03])
        #expect(SMPPDU.centralIdentification(ediv: 0xBEEF, rand: 0x1122_3344_5566_7788).bytes
            == [0x07, 0xEF, 0xBE, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        #expect(SMPPDU.identityAddressInformation(radio).bytes == [0x09, 0x01, 0x01, 0, 0, 0, 0, 0xF0])
        #expect(SMPPDU.securityRequest([.bonding, .mitm, .secureConnections]).bytes == [0x0B, 0x0D])
        #expect(SMPPDU.pairingFailed(.dhKeyCheckFailed).bytes == [0x05, 0x0B])
    }

    @Test func reservedAuthReqBitsSurviveARoundTrip() throws {
        guard case let .securityRequest(auth) = try SMPPDU([0x0B, 0xC5]) else { Issue.record("not a Security Request"); return }
        #expect(auth.contains(.bonding) && auth.contains(.mitm) && auth.rawValue == 0xC5)
        #expect(SMPPDU.securityRequest(auth).bytes == [0x0B, 0xC5])
    }

    @Test func wrongLengthsNameThePDU() {
        for pdu in everyPDU {
            let bytes = pdu.bytes
            for broken in [Array(bytes.dropLast()), bytes + [0]] {
                #expect(throws: SMPPDUError(code: pdu.code, problem: .wrongLength(expected: bytes.count, actual: broken.count))) {
                    try SMPPDU(broken)
                }
            }
        }
        let error = SMPPDUError(code: 0x02, problem: .wrongLength(expected: 7, actual: 3))
        #expect(error.description == "SMP Pairing Response of 3 bytes: it has 7")
        #expect(error.reason == .invalidParameters)
    }

    @Test func emptyAndUnknownPDUs() {
        #expect(throws: SMPPDUError(code: nil, problem: .empty)) { try SMPPDU([]) }
        #expect(throws: SMPPDUError(code: 0x0F, problem: .unknownCode)) { try SMPPDU([0x0F, 0]) }
        #expect(throws: SMPPDUError(code: 0x42, problem: .unknownCode)) { try SMPPDU([0x42]) }
        #expect(SMPPDUError(code: 0x42, problem: .unknownCode).reason == .commandNotSupported)
        #expect(SMPPDUError(code: 0x42, problem: .unknownCode).description == "unknown SMP command code 0x42")
    }

    @Test func reservedValuesAreRefused() {
        #expect(throws: SMPPDUError(code: 0x02, problem: .reservedValue(field: "IO capability", value: 0x05))) {
            try SMPPDU([0x02, 0x05, 0, 0x0D, 16, 0, 0])
        }
        #expect(throws: SMPPDUError(code: 0x01, problem: .reservedValue(field: "OOB data flag", value: 0x02))) {
            try SMPPDU([0x01, 0x02, 0x02, 0x0D, 16, 0, 0])
        }
        #expect(throws: SMPPDUError(code: 0x09, problem: .reservedValue(field: "address type", value: 0x02))) {
            try SMPPDU([0x09, 0x02, 1, 2, 3, 4, 5, 6])
        }
        #expect(throws: SMPPDUError(code: 0x0E, problem: .reservedValue(field: "notification type", value: 0x05))) {
            try SMPPDU([0x0E, 0x05])
        }
        #expect(SMPPDUError(code: 0x02, problem: .reservedValue(field: "IO capability", value: 0x05)).description
            == "SMP Pairing Response: IO capability 0x05 is reserved")
    }

    @Test func failureReasonsAreNamed() throws {
        #expect(SMPFailure.confirmValueFailed.description == "0x04 (Confirm Value Failed)")
        #expect(SMPFailure.dhKeyCheckFailed.description == "0x0B (DHKey Check Failed)")
        #expect(SMPFailure(rawValue: 0x0E).description == "0x0E (Cross-transport Key Derivation/Generation Not Allowed)")
        #expect(SMPFailure(rawValue: 0x42).description == "0x42 (reserved)")
        #expect((1...15).allSatisfy { SMPFailure(rawValue: $0).name != nil })
        // Any reason decodes, named or not.
        #expect(try SMPPDU([0x05, 0x42]) == .pairingFailed(SMPFailure(rawValue: 0x42)))
    }

    @Test func ioCapabilitiesAndKeyBits() {
        #expect(PairingFeatures.IO.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(PairingFeatures.IO.keyboardDisplay.description == "KeyboardDisplay")
        #expect(PairingFeatures.KeyDistribution([.encKey, .idKey, .signKey, .linkKey]).rawValue == 0x0F)
        #expect(PairingFeatures.AuthReq([.bonding, .mitm, .secureConnections, .keypress, .ct2]).rawValue == 0x3D)
    }
}
