import Foundation
import MeshCodec
import MeshCrypto
import MeshGateway
import MeshportTestSupport
import MeshServices
import MeshTransport
import Testing

/// Signing with the radio's own key (CMD_SIGN_START/DATA/FINISH), and the community broker
/// token made that way, end to end against MeshSim.
@Suite(.timeLimit(.minutes(1))) struct SigningServiceTests {
    @Test func theSimSignsWithTheRadiosKeyInChunks() async throws {
        try await ServiceHarness.with { h in
            let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let signature = try await SigningService(session: h.session).sign(data)
            #expect(Ed25519.verify(signature: signature, message: data, publicKey: h.snapshot.selfInfo.publicKey.bytes))
            let chunks = h.link.sent.compactMap { if case let .signData(chunk) = $0 { chunk.count } else { nil } }
            #expect(chunks == [128, 128, 128, 128, 128, 128, 128, 104])
            let empty = try await SigningService(session: h.session).sign([])
            #expect(Ed25519.verify(signature: empty, message: [], publicKey: h.snapshot.selfInfo.publicKey.bytes))
        }
    }

    @Test func dataOverTheRadiosBufferIsRefusedBeforeItIsSent() async throws {
        try await ServiceHarness.with { h in
            await #expect(throws: SigningError.tooLong(bytes: 8193, maximum: 8192, url: "sim://radio")) {
                try await SigningService(session: h.session).sign([UInt8](repeating: 1, count: 8193))
            }
            #expect(!h.link.sent.contains { if case .signData = $0 { true } else { false } })
        }
    }

    @Test(arguments: [[1, 1], [1]] as [[UInt8]]) func firmwareWithoutSigningSaysToUsePasswordAuth(_ refusal: [UInt8]) async throws {
        let radio = try ScriptedRadio { _ in [refusal] }
        let session = RadioSession(transport: radio, commandTimeout: inProcessCommandTimeout)
        try await session.open()
        do {
            _ = try await SigningService(session: session).sign(Array("token".utf8))
            Issue.record("an old radio signed")
        } catch let error as SigningError {
            #expect(error == .firmwareCannotSign(url: "tcp://old-radio:5000"))
            #expect("\(error)" == "this radio's firmware cannot sign (needs companion firmware v1.4.0 or later) on tcp://old-radio:5000: use password auth")
        }
        await session.close()
    }

    @Test func aSigningLostOnTheRadioIsInterrupted() async throws {
        // SIGN_START answered, then the radio has no signing (another client finished it).
        let radio = try ScriptedRadio { frame in
            frame.first == 0x21 ? [[19, 0, 0, 32, 0, 0]] : [[1, 4]]
        }
        let session = RadioSession(transport: radio, commandTimeout: inProcessCommandTimeout)
        try await session.open()
        await #expect(throws: SigningError.interrupted(url: "tcp://old-radio:5000", step: "CMD_SIGN_DATA")) {
            try await SigningService(session: session).sign([1, 2, 3])
        }
        await session.close()
    }

    @Test func aTokenSignedOnTheSimVerifiesInPython() async throws {
        try await ServiceHarness.with { h in
            let signing = SigningService(session: h.session)
            let key = h.snapshot.selfInfo.publicKey
            let token = try await GatewayToken.make(publicKey: key, audience: "mqtt-eu-v1.letsmesh.net", issuedAt: Date()) {
                try await signing.sign($0)
            }
            let run = try await runPythonScript("Tools/Interop/gateway_check.py", ["token"], input: "\(token.text) \(Hex.encode(key.bytes))")
            #expect(run.status == 0 && run.out == "1 checked, 0 failed\n", "\(run.out)\n\(run.err)")
            #expect(!h.link.sent.contains(.exportPrivateKey), "the private key never leaves the radio")
        }
    }
}

/// A radio that answers each frame with what `answer` says (a firmware older than the sim).
final class ScriptedRadio: Transport, @unchecked Sendable {
    let url: TransportURL
    let frames: AsyncStream<[UInt8]>
    let states: AsyncStream<LinkState>
    private let frameSink: AsyncStream<[UInt8]>.Continuation
    private let stateSink: AsyncStream<LinkState>.Continuation
    private let answer: @Sendable ([UInt8]) -> [[UInt8]]

    init(_ answer: @escaping @Sendable ([UInt8]) -> [[UInt8]]) throws {
        url = try TransportURL("tcp://old-radio:5000")
        self.answer = answer
        (frames, frameSink) = AsyncStream.makeStream()
        (states, stateSink) = AsyncStream.makeStream()
        stateSink.yield(.closed)
    }

    func open() async throws { stateSink.yield(.open) }

    func send(_ frame: [UInt8]) async throws {
        for reply in answer(frame) { frameSink.yield(reply) }
    }

    func close() async {
        stateSink.yield(.closed)
        frameSink.finish()
        stateSink.finish()
    }
}
