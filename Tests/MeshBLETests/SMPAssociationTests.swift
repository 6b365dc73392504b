@testable import MeshBLE
import Testing

/// The association model table (Core Vol 3 Part H 2.3.5.1, Table 2.8), initiator first.
@Suite struct SMPAssociationTests {
    private func features(_ io: PairingFeatures.IO, mitm: Bool = true, oob: Bool = false) -> PairingFeatures {
        PairingFeatures(ioCapability: io, oobDataPresent: oob, authReq: mitm ? [.bonding, .mitm] : [.bonding], initiatorKeys: [], responderKeys: [])
    }

    private func model(_ i: PairingFeatures.IO, _ r: PairingFeatures.IO, sc: Bool) -> SMPAssociation {
        SMPAssociation.select(initiator: features(i), responder: features(r), secureConnections: sc)
    }

    @Test func keyboardOnlyEntersThePasskeyWithEveryRadioThatCanShowOrTypeOne() {
        for sc in [true, false] {
            for radio in [PairingFeatures.IO.displayOnly, .displayYesNo, .keyboardDisplay, .keyboardOnly] {
                #expect(model(.keyboardOnly, radio, sc: sc) == .passkeyEntry(initiatorDisplays: false))
            }
            #expect(model(.keyboardOnly, .noInputNoOutput, sc: sc) == .justWorks)
        }
    }

    @Test func theTableCorners() {
        #expect(model(.keyboardDisplay, .displayOnly, sc: true) == .passkeyEntry(initiatorDisplays: false))
        #expect(model(.keyboardDisplay, .keyboardDisplay, sc: false) == .passkeyEntry(initiatorDisplays: true))
        #expect(model(.keyboardDisplay, .keyboardDisplay, sc: true) == .numericComparison)
        #expect(model(.keyboardDisplay, .displayYesNo, sc: false) == .passkeyEntry(initiatorDisplays: false))
        #expect(model(.displayYesNo, .keyboardDisplay, sc: false) == .passkeyEntry(initiatorDisplays: true))
        #expect(model(.displayYesNo, .displayYesNo, sc: false) == .justWorks)
        #expect(model(.displayYesNo, .displayYesNo, sc: true) == .numericComparison)
        #expect(model(.displayOnly, .keyboardOnly, sc: true) == .passkeyEntry(initiatorDisplays: true))
        #expect(model(.displayOnly, .displayOnly, sc: true) == .justWorks)
        #expect(model(.noInputNoOutput, .keyboardDisplay, sc: true) == .justWorks)
    }

    @Test func withoutMITMOnEitherSideItIsJustWorks() {
        let model = SMPAssociation.select(initiator: features(.keyboardOnly, mitm: false), responder: features(.displayOnly, mitm: false),
                                          secureConnections: true)
        #expect(model == .justWorks)
        let oneSide = SMPAssociation.select(initiator: features(.keyboardOnly, mitm: false), responder: features(.displayOnly),
                                            secureConnections: true)
        #expect(oneSide == .passkeyEntry(initiatorDisplays: false))
    }

    @Test func outOfBandNeedsBothFlagsInLegacyAndEitherInSecureConnections() {
        let one = features(.displayOnly, oob: true), none = features(.keyboardOnly)
        #expect(SMPAssociation.select(initiator: none, responder: one, secureConnections: true) == .outOfBand)
        #expect(SMPAssociation.select(initiator: none, responder: one, secureConnections: false) == .passkeyEntry(initiatorDisplays: false))
        #expect(SMPAssociation.select(initiator: features(.keyboardOnly, oob: true), responder: one, secureConnections: false) == .outOfBand)
    }
}
