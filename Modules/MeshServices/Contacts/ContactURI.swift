import Foundation
import MeshCodec

/// The contact link the official apps show as a QR code:
/// `meshcore://contact/add?name=NAME&public_key=64HEX&type=1..4`.
public struct ContactURI: Hashable, Sendable {
    public var name: String
    public var publicKey: PublicKey
    public var type: NodeType

    public init(name: String, publicKey: PublicKey, type: NodeType) {
        self.name = name
        self.publicKey = publicKey
        self.type = type
    }

    public init(parsing text: String) throws(MeshcoreURIError) {
        let query = try MeshcoreURI.query(text, path: "contact/add")
        guard let name = query["name"], !name.isEmpty else { throw .missing(text, "name") }
        guard let hex = query["public_key"] else { throw .missing(text, "public_key") }
        guard let key = PublicKey(hex: hex) else { throw .invalid(text, "public_key", "64 hex digits") }
        guard let t = query["type"].flatMap(UInt8.init), (1...4).contains(t) else { throw .invalid(text, "type", "1 (chat) to 4 (sensor)") }
        self.init(name: name, publicKey: key, type: NodeType(rawValue: t))
    }

    public var text: String {
        MeshcoreURI.make("contact/add", [("name", name), ("public_key", publicKey.hex), ("type", String(type.rawValue))])
    }
}

/// The channel link: `meshcore://channel/add?name=NAME&secret=32HEX`.
public struct ChannelURI: Hashable, Sendable {
    public var name: String
    public var secret: ChannelSecret

    public init(name: String, secret: ChannelSecret) {
        self.name = name
        self.secret = secret
    }

    public init(parsing text: String) throws(MeshcoreURIError) {
        let query = try MeshcoreURI.query(text, path: "channel/add")
        guard let name = query["name"], !name.isEmpty else { throw .missing(text, "name") }
        guard let hex = query["secret"] else { throw .missing(text, "secret") }
        guard let secret = ChannelSecret(hex: hex) else { throw .invalid(text, "secret", "32 hex digits") }
        self.init(name: name, secret: secret)
    }

    public var text: String { MeshcoreURI.make("channel/add", [("name", name), ("secret", secret.hex)]) }
}

/// Why a `meshcore://` link was refused: the link and the part at fault.
public enum MeshcoreURIError: Error, Hashable, Sendable, CustomStringConvertible {
    case notAMeshcoreURI(String, expected: String)
    case missing(String, String)
    case invalid(String, String, String)

    public var description: String {
        switch self {
        case let .notAMeshcoreURI(text, expected): "\(text) is not a meshcore://\(expected) link"
        case let .missing(text, field): "\(text) has no \(field)"
        case let .invalid(text, field, expected): "\(text): \(field) must be \(expected)"
        }
    }
}

enum MeshcoreURI {
    static func query(_ text: String, path: String) throws(MeshcoreURIError) -> [String: String] {
        guard let parts = URLComponents(string: text), parts.scheme == "meshcore",
              (parts.host ?? "") + parts.path == path else { throw .notAMeshcoreURI(text, expected: path) }
        var out: [String: String] = [:]
        for item in parts.queryItems ?? [] where out[item.name] == nil { out[item.name] = item.value ?? "" }
        return out
    }

    static func make(_ path: String, _ items: [(String, String)]) -> String {
        var parts = URLComponents()
        parts.scheme = "meshcore"
        parts.host = String(path.split(separator: "/")[0])
        parts.path = "/" + path.split(separator: "/").dropFirst().joined(separator: "/")
        parts.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
        return parts.string ?? "meshcore://\(path)"
    }
}
