import Foundation

/// A test's own CA (EC P-256, two days, made with openssl) in a folder, and the certificates it
/// signs: servers' (with subject alternative names) and clients'. Blocking: call it through `offPool`.
public struct TestCertificates: Sendable {
    public let folder: TempDir
    /// The CA's certificate, for a client's or server's list of trusted CAs.
    public var caFile: String { folder.path("ca.pem") }

    private static let openssl = "/usr/bin/openssl"
    private static let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    public init(in folder: TempDir) throws {
        self.folder = folder
        try runTool(Self.openssl, ["req", "-x509"] + Self.newKey + ["-keyout", folder.path("ca.key"), "-out", caFile,
                                                                  "-days", "2", "-subj", "/CN=Meshport test CA"])
    }

    /// A certificate signed by the CA for `commonName`, valid for `alternativeNames`
    /// (`IP:127.0.0.1`, `DNS:localhost`; none for a client's), as `NAME.pem` and `NAME.key`.
    @discardableResult
    public func issue(_ name: String, commonName: String, alternativeNames: [String] = []) throws -> (certificate: String, key: String) {
        let (certificate, key, request) = (folder.path(name + ".pem"), folder.path(name + ".key"), folder.path(name + ".csr"))
        try runTool(Self.openssl, ["req"] + Self.newKey + ["-keyout", key, "-out", request, "-subj", "/CN=\(commonName)"])
        var signing = ["x509", "-req", "-in", request, "-CA", caFile, "-CAkey", folder.path("ca.key"), "-CAcreateserial",
                       "-out", certificate, "-days", "2"]
        if !alternativeNames.isEmpty {
            let extensions = folder.path(name + ".ext")
            try Data("subjectAltName=\(alternativeNames.joined(separator: ","))\n".utf8).write(to: URL(fileURLWithPath: extensions))
            signing += ["-extfile", extensions]
        }
        try runTool(Self.openssl, signing)
        return (certificate, key)
    }
}
