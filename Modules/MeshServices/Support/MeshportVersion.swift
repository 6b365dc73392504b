/// Meshport's version, where a peer is told which program it talks to (the gateway status's
/// `client_version`, `/api/server`) and `meshport --version`. The number comes from the
/// package's VERSION file and the commit from git, both at build time (Tools/build-info.sh).
public enum MeshportVersion {
    public static let text = MeshportBuild.version
    /// The short git commit the build's sources come from; nil when they were no git checkout.
    public static let commit = MeshportBuild.commit
    /// `meshport --version`: "meshport 0.2.0 (commit abc1234)".
    public static let full = "meshport \(text) (commit \(commit ?? "unknown"))"
}
