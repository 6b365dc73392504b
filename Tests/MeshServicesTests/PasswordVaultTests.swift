import Foundation
import MeshCodec
import MeshportTestSupport
import MeshServices
import Testing

@Suite(.timeLimit(.minutes(1))) struct PasswordVaultTests {
    let dir = TempDir()
    let key = PublicKey([UInt8](repeating: 0x5A, count: 32))!

    @Test func theFileIsCreatedOwnerOnly() throws {
        let vault = PasswordVault(path: dir.path("nested/passwords.json"))
        #expect(try vault.password(for: key) == nil && vault.permissions() == nil)
        try vault.remember("hunter2", for: key)
        #expect(try vault.permissions() == 0o600)
        #expect(try vault.password(for: key) == "hunter2")
        try vault.remember("other", for: key)
        #expect(try vault.permissions() == 0o600 && vault.password(for: key) == "other")
        try vault.forget(key)
        #expect(try vault.password(for: key) == nil)
    }

    @Test func aFileOthersCanReadIsRefusedUntilRepaired() throws {
        let vault = PasswordVault(path: dir.path("passwords.json"))
        try vault.remember("hunter2", for: key)
        #expect(chmod(vault.path, 0o644) == 0)
        #expect(throws: PasswordVaultError.tooOpen(path: vault.path, mode: 0o644)) { try vault.password(for: key) }
        #expect(throws: PasswordVaultError.tooOpen(path: vault.path, mode: 0o644)) { try vault.remember("x", for: key) }
        try vault.repairPermissions()
        #expect(try vault.permissions() == 0o600 && vault.password(for: key) == "hunter2")
    }

    @Test func aCorruptFileIsNamed() throws {
        let vault = PasswordVault(path: dir.path("passwords.json"))
        #expect(FileManager.default.createFile(atPath: vault.path, contents: Data("not json".utf8), attributes: [.posixPermissions: 0o600]))
        do {
            _ = try vault.password(for: key)
            Issue.record("read a corrupt file")
        } catch {
            guard case let .corrupt(path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == vault.path)
        }
    }
}
