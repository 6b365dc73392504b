/// Meshport's version, where a peer is told which program it talks to (the gateway status's
/// `client_version`).
public enum MeshportVersion {
    public static let text = "0.1.0"
}
