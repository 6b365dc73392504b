import Foundation
@testable import MeshBLE
import Testing

@Suite struct BondStoreTests {
    let radio = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)

    private func tempPath() -> (String, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-bonds-\(UUID().uuidString)")
        return (dir.appendingPathComponent("ble/bonds.json").path, dir)
    }

    @Test func keepsBondsInAPrivateFile() throws {
        let (path, dir) = tempPath()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = BondStore(path: path)
        #expect(try store.bond(for: radio) == nil)
        let bond = SMPBond(peer: radio, ltk: [UInt8](repeating: 9, count: 16), ediv: 1, rand: 2, keySize: 16, authenticated: true, secureConnections: true)
        try store.save(bond)
        #expect(try BondStore(path: path).bond(for: radio)?.ltk == bond.ltk)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)[.posixPermissions] as? Int
        #expect(folder == 0o700)
        // Saving again replaces, forgetting removes.
        try store.save(bond)
        #expect(try store.all().count == 1)
        #expect(try store.forget(radio))
        #expect(try !store.forget(radio))
        #expect(try store.bond(for: radio) == nil)
    }

    @Test func findsABondByIdentityAddress() throws {
        let (path, dir) = tempPath()
        defer { try? FileManager.default.removeItem(at: dir) }
        let identity = BDAddress(littleEndian: [9, 9, 9, 9, 9, 0xC9], kind: .random)
        try BondStore(path: path).save(SMPBond(peer: radio, ltk: [UInt8](repeating: 1, count: 16), ediv: 0, rand: 0, keySize: 16,
                                               authenticated: true, secureConnections: true, peerIdentity: identity))
        #expect(try BondStore(path: path).bond(for: identity) != nil)
    }

    @Test func localIRKIsMadeOnce() throws {
        let (path, dir) = tempPath()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try BondStore(path: path).localIRK()
        #expect(first.count == 16)
        #expect(try BondStore(path: path).localIRK() == first)
    }

    @Test func unreadableFileIsATypedErrorWithThePath() throws {
        let (path, dir) = tempPath()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try BondStore(path: path).bond(for: radio)
            Issue.record("read a broken file")
        } catch {
            #expect(error.path == path && error.description.contains("delete it"))
        }
    }

    @Test func defaultPathFollowsXDG() {
        #expect(BondStore.defaultPath(environment: ["XDG_DATA_HOME": "/d"]) == "/d/meshport/ble/bonds.json")
        #expect(BondStore.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/meshport/ble/bonds.json")
    }
}
