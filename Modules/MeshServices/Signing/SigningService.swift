import MeshCodec

/// Signs data with the radio's own Ed25519 key, which never leaves the radio: SIGN_START
/// (the radio answers with its buffer size), the data in SIGN_DATA chunks, SIGN_FINISH (the
/// 64-byte signature). Throws `SigningError` for what the radio refuses, `SessionError` for
/// a link or answer problem.
public struct SigningService: Sendable {
    public let session: RadioSession
    /// Bytes per SIGN_DATA frame: well inside the 172-byte frame every firmware accepts.
    public static let chunkSize = 128

    public init(session: RadioSession) {
        self.session = session
    }

    public func sign(_ data: [UInt8]) async throws -> [UInt8] {
        let url = session.url.text
        let maximum: UInt32
        do {
            maximum = try await session.expect(.signStart) { if case let .signStart(max) = $0 { max } else { nil } }
        } catch let SessionError.refused(_, _, error) where error == .unsupportedCommand || error == .unspecified {
            throw SigningError.firmwareCannotSign(url: url)
        }
        guard data.count <= Int(maximum) else { throw SigningError.tooLong(bytes: data.count, maximum: Int(maximum), url: url) }
        for start in stride(from: 0, to: data.count, by: Self.chunkSize) {
            let chunk = Array(data[start..<min(start + Self.chunkSize, data.count)])
            do {
                try await session.expectOK(.signData(chunk))
            } catch let SessionError.refused(_, _, error) where error == .tableFull {
                throw SigningError.tooLong(bytes: data.count, maximum: Int(maximum), url: url)
            } catch let SessionError.refused(_, _, error) where error == .badState {
                throw SigningError.interrupted(url: url, step: "CMD_SIGN_DATA")
            }
        }
        do {
            return try await session.expect(.signFinish) { if case let .signature(s) = $0 { s } else { nil } }
        } catch let SessionError.refused(_, _, error) where error == .badState {
            throw SigningError.interrupted(url: url, step: "CMD_SIGN_FINISH")
        }
    }
}
