import MeshCodec

/// A login that succeeded (LOGIN_SUCCESS).
public struct RemoteLogin: Hashable, Sendable {
    public var node: PublicKey
    public var role: NodeType
    public var isAdmin: Bool
    /// ACL permission, low 2 bits: 0 guest, 1 read-only, 2 read-write, 3 admin.
    public var permission: UInt8
    /// The server's clock (1.7.0+).
    public var serverTimestamp: UInt32?
    /// The server's `FIRMWARE_VER_LEVEL` (1.9.0+).
    public var firmwareLevel: UInt8?

    public init(node: PublicKey, role: NodeType, reply: LoginSuccess) {
        self.node = node
        self.role = role
        isAdmin = reply.isAdmin
        permission = reply.aclPermissions.map { $0 & 3 } ?? (reply.isAdmin ? 3 : 0)
        serverTimestamp = reply.serverTimestamp
        firmwareLevel = reply.firmwareLevel
    }
}
