import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension PostgresProcess {
    /// The database whose connections must show a client certificate for their user
    /// (`clientCertificate`), signed by the test's CA.
    public static let clientCertificateDatabase = "clientcert"

    /// The client certificate for `user`, signed by the server's CA; nil without TLS.
    public var clientCertificate: (certificate: String, key: String)? {
        certificates.map { ($0.folder.path("client.pem"), $0.folder.path("client.key")) }
    }

    /// `ssl = on` with a certificate for `serverNames` signed by a CA of the test's own, and a
    /// pg_hba.conf of `hostssl` lines only: a connection without TLS is refused, and one to
    /// `clientCertificateDatabase` needs a client certificate.
    static func configureTLS(dataFolder: String, serverNames: [String], in folder: TempDir) throws -> TestCertificates {
        let certificates = try TestCertificates(in: folder)
        let server = try certificates.issue("server", commonName: "PostgreSQL test server", alternativeNames: serverNames)
        try certificates.issue("client", commonName: user)
        // PostgreSQL reads its key only when its own user owns it and no one else may read it.
        if let owner = serverUser { try chown(server.key, to: owner) }
        guard chmod(server.key, 0o600) == 0 else { throw ProcessFailure("chmod 600 \(server.key): errno \(errno)") }
        let settings = """

            ssl = on
            ssl_cert_file = '\(server.certificate)'
            ssl_key_file = '\(server.key)'
            ssl_ca_file = '\(certificates.caFile)'

            """
        let configuration = try FileHandle(forWritingTo: URL(fileURLWithPath: dataFolder + "/postgresql.conf"))
        configuration.seekToEndOfFile()
        configuration.write(Data(settings.utf8))
        try configuration.close()
        let rules = """
            local all all trust
            hostssl \(clientCertificateDatabase) all 127.0.0.1/32 cert
            hostssl all all 127.0.0.1/32 trust

            """
        try Data(rules.utf8).write(to: URL(fileURLWithPath: dataFolder + "/pg_hba.conf"))
        return certificates
    }
}
