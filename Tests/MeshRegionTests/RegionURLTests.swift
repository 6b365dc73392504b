import Foundation
import MeshportTestSupport
import Testing

@testable import MeshRegion

/// The database URL's TLS parameters, read as libpq reads them; every bad one is a typed error
/// naming it and what it takes, with the URL's password hidden.
@Suite struct RegionURLTests {
    static let modes = "disable, prefer, require, verify-ca, verify-full"

    func reason(_ text: String) -> String? {
        do {
            _ = try RegionDatabaseURL(text)
            return nil
        } catch {
            guard case .invalidURL(_, let reason) = error else { return "not invalidURL: \(error)" }
            return reason
        }
    }

    @Test func withoutParametersTLSIsPreferredAndNothingIsVerified() throws {
        let url = try RegionDatabaseURL("postgres://meshport:secret@db.lan/region")
        #expect(url.tls == RegionTLS(mode: .prefer, roots: nil, clientCertificate: nil))
        #expect(url.tls.verification == .none)
        #expect(url.description == "postgres://meshport@db.lan:5432/region")
    }

    @Test func eachModeVerifiesWhatLibpqVerifies() throws {
        func tls(_ query: String) throws -> RegionTLS { try RegionDatabaseURL("postgres://u@h/db?" + query).tls }
        #expect(try tls("sslmode=disable").verification == .none)
        #expect(try tls("sslmode=require").verification == .none)
        #expect(try tls("sslmode=require&sslrootcert=/etc/ca.pem").verification == .chain, "require with a root certificate is verify-ca")
        #expect(try tls("sslmode=prefer&sslrootcert=/etc/ca.pem").verification == .chain)
        #expect(try tls("sslmode=verify-ca&sslrootcert=/etc/ca.pem").verification == .chain)
        #expect(try tls("sslmode=verify-full&sslrootcert=/etc/ca.pem").verification == .chainAndHostName)
        #expect(try tls("sslrootcert=system") == RegionTLS(mode: .verifyFull, roots: .system, clientCertificate: nil),
                "the system's CAs mean verify-full, as in libpq 16")
        let client = try tls("sslmode=verify-full&sslrootcert=/etc/ca%20dir/ca.pem&sslcert=/etc/client.pem&sslkey=/etc/client.key")
        #expect(client.roots == .file("/etc/ca dir/ca.pem"))
        #expect(client.clientCertificate == RegionTLS.ClientCertificate(certificateFile: "/etc/client.pem", keyFile: "/etc/client.key"))
    }

    @Test func theDescriptionKeepsTheTLSParametersAndNotThePassword() throws {
        let url = try RegionDatabaseURL("postgresql://meshport:secret@db.lan:6432/region?sslrootcert=/etc/a%26b.pem&sslmode=verify-ca")
        #expect(url.description == "postgres://meshport@db.lan:6432/region?sslmode=verify-ca&sslrootcert=/etc/a%26b.pem")
        #expect(try RegionDatabaseURL(url.description).tls == url.tls)
    }

    @Test func badValuesNameTheParameterAndWhatItTakes() {
        #expect(reason("postgres://u@h/db?sslmode=allow") == "sslmode=allow is not one of \(Self.modes)")
        #expect(reason("postgres://u@h/db?sslmode=REQUIRE") == "sslmode=REQUIRE is not one of \(Self.modes)")
        #expect(reason("postgres://u@h/db?sslmode=") == "the parameter sslmode has no value")
        #expect(reason("postgres://u@h/db?sslmode=require&sslmode=disable") == "the parameter sslmode is given twice")
        #expect(reason("postgres://u@h/db?sslmod=require")
                == "the parameter \"sslmod\" is not one this URL takes (sslmode, sslrootcert, sslcert, sslkey)")
        #expect(reason("postgres://u@h/db?sslmode=verify-full")
                == "sslmode=verify-full needs the CAs to check the server against: sslrootcert=PATH (a PEM file) or sslrootcert=system")
        #expect(reason("postgres://u@h/db?sslmode=verify-ca&sslrootcert=system")
                == "sslrootcert=system needs sslmode=verify-full (the system's CAs vouch for hosts other than this one)")
        #expect(reason("postgres://u@h/db?sslmode=require&sslcert=/c.pem")
                == "sslcert and sslkey go together: give both, the certificate and its private key")
        #expect(reason("postgres://u@h/db?sslmode=disable&sslrootcert=/ca.pem") == "sslrootcert is for TLS connections, and sslmode=disable makes none")
    }

    @Test func theErrorHidesEveryPassword() {
        #expect(throws: RegionStoreError.invalidURL(url: "postgres://u:***@h/db?sslmode=bogus",
                                                    reason: "sslmode=bogus is not one of \(Self.modes)")) {
            _ = try RegionDatabaseURL("postgres://u:secret@h/db?sslmode=bogus")
        }
        #expect(throws: RegionStoreError.invalidURL(url: "postgres://u@h/db?password=***",
                                                    reason: "the parameter \"password\" is not one this URL takes (sslmode, sslrootcert, sslcert, sslkey)")) {
            _ = try RegionDatabaseURL("postgres://u@h/db?password=secret")
        }
        #expect(throws: RegionHistoryError.invalidURL(url: "postgres://u:***@h/db?sslmode=bogus",
                                                      reason: "sslmode=bogus is not one of \(Self.modes)")) {
            _ = try RegionHistory(url: "postgres://u:secret@h/db?sslmode=bogus")
        }
    }

    @Test func aTLSFileThatCannotBeUsedIsNamedBeforeAnyConnection() async throws {
        let dir = TempDir()
        let missing = dir.path("missing.pem")
        let failure = await #expect(throws: RegionStoreError.self) {
            _ = try await RegionStore.connect(url: "postgres://u:secret@127.0.0.1:1/db?sslmode=verify-full&sslrootcert=\(missing)", log: { _ in })
        }
        guard case .invalidURL(let url, let reason)? = failure else { Issue.record("not invalidURL: \(String(describing: failure))"); return }
        #expect(url == "postgres://u@127.0.0.1:1/db?sslmode=verify-full&sslrootcert=\(missing)")
        #expect(reason.hasPrefix("the sslrootcert file \(missing) cannot be read"), "\(reason)")
        let notPEM = dir.path("not.pem")
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        #expect(throws: RegionHistoryError.invalidURL(url: "postgres://u@h:5432/db?sslmode=require&sslrootcert=\(notPEM)",
                                                      reason: "the sslrootcert file \(notPEM) holds no PEM certificate (failedToLoadCertificate)")) {
            _ = try RegionHistory(url: "postgres://u@h/db?sslmode=require&sslrootcert=\(notPEM)")
        }
    }
}
