import Foundation
import MeshBLE
import MeshportFuzzSupport
import Synchronization

/// libFuzzer entry: the input is a radio's side of pairing. Its first byte picks the central's
/// configuration (LE Secure Connections, legacy, bonding, identity); then each step is either
/// an SMP PDU from the radio (a length-prefixed chunk) or the link's Encryption Change. Every
/// PDU that decodes must encode back to its own bytes; the initiator must not trap, must only
/// send well-formed PDUs, and must end every run in a state that agrees with what it reported.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let choice = input.byte()
    var config = SMPConfig(passkey: 123_456)
    config.allowSecureConnections = choice & 1 == 0
    config.allowLegacy = choice & 2 == 0 || !config.allowSecureConnections
    config.bonding = choice & 4 == 0
    if choice & 8 == 0 { config.localIdentity = (identityIRK, central) }
    // Nonces come from the input too, so a run is a function of its bytes.
    let nonces = NonceSource(input.take(32))
    var smp = SMPInitiator(config: config, local: central, peer: radio, random: { nonces.next($0) },
                           now: { Date(timeIntervalSince1970: 1_800_000_000) })
    var outcome = check(smp.start())
    while !input.isEmpty {
        let step = input.byte()
        let actions: [SMPAction]
        if step & 0xF0 == 0xE0 {
            actions = smp.encryptionChanged(status: step & 1 == 0 ? 0 : 0x06, enabled: step & 2 == 0)
        } else {
            let pdu = input.chunk()
            if let decoded = try? SMPPDU(pdu), decoded.bytes != pdu { fuzzFinding("SMP PDU round trip differs: \(fuzzHex(pdu))") }
            actions = smp.handle(pdu: pdu)
        }
        if outcome != nil, !actions.isEmpty { fuzzFinding("actions after pairing ended: \(actions)") }
        outcome = check(actions) ?? outcome
    }
    switch outcome {
    case .completed?: guard smp.state == .completed else { fuzzFinding("pairing reported completion but is \(smp.state)") }
    case .failed?: guard smp.state == .failed else { fuzzFinding("pairing reported failure but is \(smp.state)") }
    case nil: guard !smp.isFinished else { fuzzFinding("pairing finished (\(smp.state)) without saying so") }
    }
    return 0
}

private enum Outcome { case completed, failed }

/// Checks one batch of actions; returns how pairing ended if it did in this batch.
private func check(_ actions: [SMPAction]) -> Outcome? {
    var outcome: Outcome?
    for action in actions {
        guard outcome == nil else { fuzzFinding("an action after pairing ended: \(action)") }
        switch action {
        case let .send(pdu):
            guard (try? SMPPDU(pdu)) != nil else { fuzzFinding("the initiator sent a malformed SMP PDU: \(fuzzHex(pdu))") }
        case let .startEncryption(ltk, _, _):
            guard ltk.count == 16 else { fuzzFinding("an encryption key of \(ltk.count) bytes") }
        case .completed: outcome = .completed
        case .failed: outcome = .failed
        }
    }
    return outcome
}

private let central = BDAddress(littleEndian: [2, 0, 0, 0, 0, 0xE1], kind: .random)
private let radio = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)
private let identityIRK: [UInt8] = (0..<16).map { UInt8(0xA0 + $0) }

/// Random bytes for the initiator, cycled from the input's seed.
private final class NonceSource: Sendable {
    private let seed: [UInt8]
    private let counter = Mutex<UInt8>(0)

    init(_ seed: [UInt8]) { self.seed = seed.isEmpty ? [0] : seed }

    func next(_ count: Int) -> [UInt8] {
        let round = counter.withLock { value in
            value &+= 1
            return value
        }
        return (0..<count).map { seed[$0 % seed.count] &+ round }
    }
}
