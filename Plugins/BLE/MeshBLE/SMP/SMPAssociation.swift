/// How the two sides authenticate a pairing (Core Vol 3 Part H 2.3.5.1, Tables 2.6–2.8).
public enum SMPAssociation: Equatable, Sendable {
    /// No authentication: open to a man in the middle.
    case justWorks
    /// A 6-digit passkey shown on one side (or known to both) and entered on the other.
    case passkeyEntry(initiatorDisplays: Bool)
    /// Both sides show a number and a person confirms (LE Secure Connections only).
    case numericComparison
    case outOfBand

    /// The model for these Pairing Request and Response features.
    public static func select(initiator: PairingFeatures, responder: PairingFeatures, secureConnections: Bool) -> SMPAssociation {
        // OOB: legacy needs both flags; LE Secure Connections either.
        if secureConnections ? (initiator.oobDataPresent || responder.oobDataPresent)
            : (initiator.oobDataPresent && responder.oobDataPresent)
        {
            return .outOfBand
        }
        guard initiator.authReq.union(responder.authReq).contains(.mitm) else { return .justWorks }
        return fromIO(initiator: initiator.ioCapability, responder: responder.ioCapability, secureConnections: secureConnections)
    }

    /// Table 2.8: IO capabilities to the model, when MITM protection is requested.
    static func fromIO(initiator: PairingFeatures.IO, responder: PairingFeatures.IO, secureConnections: Bool) -> SMPAssociation {
        let legacyOrNumeric: (SMPAssociation) -> SMPAssociation = { secureConnections ? .numericComparison : $0 }
        switch (initiator, responder) {
        case (.noInputNoOutput, _), (_, .noInputNoOutput):
            return .justWorks
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo), (.displayYesNo, .displayOnly):
            return .justWorks
        case (.displayYesNo, .displayYesNo):
            return legacyOrNumeric(.justWorks)
        case (.keyboardOnly, .displayOnly), (.keyboardOnly, .displayYesNo), (.keyboardOnly, .keyboardDisplay),
             (.keyboardDisplay, .displayOnly):
            return .passkeyEntry(initiatorDisplays: false)
        case (.keyboardOnly, .keyboardOnly):
            return .passkeyEntry(initiatorDisplays: false)  // both enter the same passkey
        case (.displayOnly, .keyboardOnly), (.displayOnly, .keyboardDisplay), (.displayYesNo, .keyboardOnly),
             (.keyboardDisplay, .keyboardOnly):
            return .passkeyEntry(initiatorDisplays: true)
        case (.displayYesNo, .keyboardDisplay), (.keyboardDisplay, .keyboardDisplay):
            return legacyOrNumeric(.passkeyEntry(initiatorDisplays: true))
        case (.keyboardDisplay, .displayYesNo):
            return legacyOrNumeric(.passkeyEntry(initiatorDisplays: false))
        }
    }
}
