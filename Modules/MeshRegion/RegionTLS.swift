import Foundation

/// How connections to the region database use TLS, set by libpq's URL parameters `sslmode`,
/// `sslrootcert`, `sslcert` and `sslkey` (Docs/region.md, "TLS"). Certificate files are named
/// here and read when a store or history is made (`RegionTLS+Context.swift`).
public struct RegionTLS: Sendable, Equatable {
    /// libpq's `sslmode` values (`allow` is not offered: postgres-nio cannot start plain and
    /// then try TLS).
    public enum Mode: String, Sendable, CaseIterable {
        /// Never TLS.
        case disable
        /// TLS when the server offers it, plain when it does not.
        case prefer
        /// TLS or no connection.
        case require
        /// TLS, and the server's certificate signed by a trusted CA.
        case verifyCA = "verify-ca"
        /// TLS, the server's certificate signed by a trusted CA and made out to the URL's host.
        case verifyFull = "verify-full"
    }

    /// The CAs the server's certificate is checked against (`sslrootcert`).
    public enum Roots: Sendable, Equatable {
        /// A PEM file of CA certificates.
        case file(String)
        /// The operating system's trusted CAs (`sslrootcert=system`, as libpq 16 reads it).
        case system
    }

    /// What is checked of the server's certificate.
    public enum Verification: Sendable, Equatable {
        case none
        /// Signed by a CA of `roots`, whatever host it names.
        case chain
        /// Signed by a CA of `roots` and made out to the URL's host.
        case chainAndHostName
    }

    /// A certificate (PEM, the client's first, any intermediates after it) and its private key
    /// (PEM, unencrypted), for servers that ask for one (`sslcert`, `sslkey`).
    public struct ClientCertificate: Sendable, Equatable {
        public var certificateFile: String
        public var keyFile: String
    }

    /// libpq's default: a URL that says nothing about TLS uses it when the server offers it.
    public static let defaultMode = Mode.prefer

    public var mode: Mode
    public var roots: Roots?
    public var clientCertificate: ClientCertificate?

    /// The URL parameters this type reads; any other one is refused.
    static let parameters = ["sslmode", "sslrootcert", "sslcert", "sslkey"]

    /// What libpq checks for this mode: `require` with a root certificate file checks the chain,
    /// as `verify-ca` does.
    public var verification: Verification {
        switch mode {
        case .disable, .prefer, .require: roots == nil ? .none : .chain
        case .verifyCA: .chain
        case .verifyFull: .chainAndHostName
        }
    }

    /// The settings from a URL's query parameters; `invalid` makes the error for a reason.
    init(parameters items: [URLQueryItem], invalid: (String) -> RegionStoreError) throws(RegionStoreError) {
        var values: [String: String] = [:]
        for item in items {
            guard Self.parameters.contains(item.name) else {
                throw invalid("the parameter \"\(item.name)\" is not one this URL takes (\(Self.parameters.joined(separator: ", ")))")
            }
            guard values[item.name] == nil else { throw invalid("the parameter \(item.name) is given twice") }
            guard let value = item.value, !value.isEmpty else { throw invalid("the parameter \(item.name) has no value") }
            values[item.name] = value
        }
        let modes = Mode.allCases.map(\.rawValue).joined(separator: ", ")
        roots = values["sslrootcert"].map { $0 == "system" ? .system : .file($0) }
        if let text = values["sslmode"] {
            guard let mode = Mode(rawValue: text) else { throw invalid("sslmode=\(text) is not one of \(modes)") }
            self.mode = mode
        } else {
            // libpq 16: the system's CAs vouch for any host they signed, so only verify-full is safe with them.
            mode = roots == .system ? .verifyFull : Self.defaultMode
        }
        switch (values["sslcert"], values["sslkey"]) {
        case (let certificate?, let key?): clientCertificate = ClientCertificate(certificateFile: certificate, keyFile: key)
        case (nil, nil): clientCertificate = nil
        default: throw invalid("sslcert and sslkey go together: give both, the certificate and its private key")
        }
        if mode == .disable, let given = ["sslrootcert", "sslcert", "sslkey"].first(where: { values[$0] != nil }) {
            throw invalid("\(given) is for TLS connections, and sslmode=disable makes none")
        }
        if roots == nil, mode == .verifyCA || mode == .verifyFull {
            throw invalid("sslmode=\(mode.rawValue) needs the CAs to check the server against: sslrootcert=PATH (a PEM file) or sslrootcert=system")
        }
        if roots == .system, mode != .verifyFull {
            throw invalid("sslrootcert=system needs sslmode=verify-full (the system's CAs vouch for hosts other than this one)")
        }
    }

    /// The parameters as a URL gives them, in a fixed order; none for the default (prefer, no files).
    var queryItems: [URLQueryItem] {
        guard self != RegionTLS(mode: Self.defaultMode, roots: nil, clientCertificate: nil) else { return [] }
        var items = [URLQueryItem(name: "sslmode", value: mode.rawValue)]
        switch roots {
        case .file(let path): items.append(URLQueryItem(name: "sslrootcert", value: path))
        case .system: items.append(URLQueryItem(name: "sslrootcert", value: "system"))
        case nil: break
        }
        if let clientCertificate {
            items.append(URLQueryItem(name: "sslcert", value: clientCertificate.certificateFile))
            items.append(URLQueryItem(name: "sslkey", value: clientCertificate.keyFile))
        }
        return items
    }

    init(mode: Mode, roots: Roots?, clientCertificate: ClientCertificate?) {
        self.mode = mode
        self.roots = roots
        self.clientCertificate = clientCertificate
    }
}
