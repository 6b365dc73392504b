import Foundation
import NIOSSL
import PostgresNIO

extension RegionTLS {
    /// postgres-nio's TLS setting for these settings, the certificate files read now. A file
    /// that cannot be read or used throws its reason (a sentence part naming the parameter and
    /// the file).
    func connectionTLS() throws(RegionTLSFileProblem) -> PostgresConnection.Configuration.TLS {
        guard mode != .disable else { return .disable }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch verification {
        case .none: configuration.certificateVerification = .none
        case .chain: configuration.certificateVerification = .noHostnameVerification
        case .chainAndHostName: configuration.certificateVerification = .fullVerification
        }
        switch roots {
        case .file(let path):
            let certificates = try Self.certificates(in: path, parameter: "sslrootcert")
            configuration.trustRoots = .certificates(certificates)
        case .system: configuration.trustRoots = .default
        case nil: break
        }
        if let clientCertificate {
            let chain = try Self.certificates(in: clientCertificate.certificateFile, parameter: "sslcert")
            configuration.certificateChain = chain.map { .certificate($0) }
            let key = try Self.contents(of: clientCertificate.keyFile, parameter: "sslkey")
            do {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: key, format: .pem))
            } catch {
                throw RegionTLSFileProblem("the sslkey file \(clientCertificate.keyFile) holds no unencrypted PEM private key (\(error))")
            }
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw RegionTLSFileProblem("the TLS files do not go together (\(error)); check that sslkey is the key of sslcert")
        }
        return mode == .prefer ? .prefer(context) : .require(context)
    }

    private static func certificates(in path: String, parameter: String) throws(RegionTLSFileProblem) -> [NIOSSLCertificate] {
        let bytes = try contents(of: path, parameter: parameter)
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw RegionTLSFileProblem("the \(parameter) file \(path) holds no PEM certificate (\(error))")
        }
        guard !certificates.isEmpty else { throw RegionTLSFileProblem("the \(parameter) file \(path) holds no PEM certificate") }
        return certificates
    }

    private static func contents(of path: String, parameter: String) throws(RegionTLSFileProblem) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RegionTLSFileProblem("the \(parameter) file \(path) cannot be read (\(error.localizedDescription))")
        }
    }
}

/// Why a TLS file named in the database URL cannot be used: the reason of an `invalidURL` error.
struct RegionTLSFileProblem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
