import MeshCodec
import MeshCrypto

/// A scenario's `gateways`: companion radios standing at given places on one shared air
/// (SimAir.swift), each served on its own port. Without the section, `meshport sim --radios N`
/// lays N of them out from the seed.
public struct GatewaySpec: Codable, Hashable, Sendable {
    /// The radio's name (default: "MeshSim" and the start of its key, as the default mesh's radio).
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    /// Seeds its identity (default: the simulation seed plus the gateway's index).
    public var seed: UInt64?
    /// Its identity instead: the firmware's 64-byte private key as EXPORT_PRIVATE_KEY gives it,
    /// 128 hex digits.
    public var privateKey: String?

    public init(name: String? = nil, latitude: Double, longitude: Double, seed: UInt64? = nil, privateKey: String? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.seed = seed
        self.privateKey = privateKey
    }

    /// `count` gateways around `center`, within about 3 km of it, placed by `seed`.
    public static func laidOut(count: Int, seed: UInt64, around center: Coordinates) -> [GatewaySpec] {
        var rng = SimRNG(seed: seed ^ 0x6A7E_3A75)
        let middle = center.isZero ? DefaultMesh.center : center
        return (0..<count).map { _ in
            GatewaySpec(latitude: middle.latitude + Double(Int.random(in: -27_000...27_000, using: &rng)) / 1_000_000,
                        longitude: middle.longitude + Double(Int.random(in: -40_000...40_000, using: &rng)) / 1_000_000)
        }
    }

    /// The gateway's key pair: from its private key, else from its seed.
    func identity(defaultSeed: UInt64, at: String) throws -> Ed25519.KeyPair {
        guard let hex = privateKey else { return SimIdentity.keyPair(seed: seed ?? defaultSeed, label: "self") }
        guard let bytes = Hex.decode(hex), bytes.count == Ed25519.privateKeySize else {
            throw ScenarioError("\(at).privateKey", "not \(2 * Ed25519.privateKeySize) hex digits")
        }
        let pair: Ed25519.KeyPair
        do {
            pair = try Ed25519.KeyPair(privateKey: bytes)
        } catch {
            throw ScenarioError("\(at).privateKey", "not an Ed25519 private key: \(error)")
        }
        guard SimIdentity.isUsable(pair.publicKey) else { throw ScenarioError("\(at).privateKey", "its public key starts 00 or FF, which the firmware reserves") }
        return pair
    }
}

extension Scenario {
    /// The mesh heard by this scenario's gateways, or by `radios` gateways laid out from the
    /// seed (the two exclude each other).
    public func gatewayMesh(seed override: UInt64? = nil, radios: Int? = nil) throws -> GatewayMesh {
        let seed = override ?? seed ?? 1
        let mesh = try state(seed: seed)
        let specs: [GatewaySpec]
        if let radios {
            guard gateways == nil else { throw ScenarioError("gateways", "the scenario places its gateways; --radios cannot add others") }
            specs = GatewaySpec.laidOut(count: try Self.check(radios, in: GatewayMesh.radioRange, "--radios"), seed: seed, around: mesh.position)
        } else {
            specs = gateways ?? []
            _ = try Self.check(specs.count, in: GatewayMesh.radioRange, "gateways (count)")
        }
        return try GatewayMesh(mesh: mesh, gateways: specs, seed: seed)
    }
}
