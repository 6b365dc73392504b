import Foundation
@testable import MeshBLE
import Testing

/// BondStore on real files in a temporary directory per test.
@Suite(.timeLimit(.minutes(1))) struct SMPBondStoreTests {
    let radio = BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .random)

    /// A bond file path two directory levels below a fresh temporary directory.
    private func withStore(_ body: (BondStore, String) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-smp-bonds-\(UUID().uuidString)").path
        defer {
            do {
                try FileManager.default.removeItem(atPath: root)
            } catch {
                Issue.record("cannot remove \(root): \(error)")
            }
        }
        try body(BondStore(path: root + "/meshport/ble/bonds.json"), root)
    }

    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func fullBond(_ peer: BDAddress, seed: UInt8) -> SMPBond {
        var bond = SMPBond(peer: peer, ltk: (0..<16).map { seed &+ $0 }, ediv: 0x1234, rand: 0x0102_0304_0506_0708, keySize: 16,
                           authenticated: true, secureConnections: false, peerIRK: [UInt8](repeating: seed, count: 16),
                           peerIdentity: BDAddress(littleEndian: [seed, 9, 9, 9, 9, 0xC9], kind: .random),
                           pairedAt: Date(timeIntervalSince1970: 1_800_000_000))
        bond.peerCSRK = [UInt8](repeating: 3, count: 16)
        bond.localLTK = [UInt8](repeating: 4, count: 16)
        bond.localEDIV = 7
        bond.localRand = 8
        bond.setLocalIdentity(irk: [UInt8](repeating: 5, count: 16), address: BDAddress(littleEndian: [2, 0, 0, 0, 0, 0xE1], kind: .random))
        return bond
    }

    @Test func bondsRoundTripInAPrivateFile() throws {
        try withStore { store, root in
            #expect(try store.bond(for: radio) == nil)
            #expect(!FileManager.default.fileExists(atPath: store.path))  // reading creates nothing
            let bond = fullBond(radio, seed: 1)
            try store.save(bond)
            #expect(try BondStore(path: store.path).bond(for: radio) == bond)
            #expect(try mode(store.path) == 0o600)
            // Every directory it created is 0700.
            #expect(try mode(root + "/meshport/ble") == 0o700)
            #expect(try mode(root + "/meshport") == 0o700)
            #expect(try mode(store.path + ".lock") == 0o600)
            // No temporary file is left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: root + "/meshport/ble").sorted()
            #expect(names == ["bonds.json", "bonds.json.lock"])
        }
    }

    @Test func lookupAndForgetByEitherAddress() throws {
        try withStore { store, _ in
            let bond = fullBond(radio, seed: 1)
            let identity = BDAddress(littleEndian: [1, 9, 9, 9, 9, 0xC9], kind: .random)
            try store.save(bond)
            try store.save(fullBond(BDAddress(littleEndian: [2, 0, 0, 0, 0, 0xF0], kind: .random), seed: 2))
            #expect(try store.bond(for: identity) == bond)
            // Found whatever type the address is given with, as a user types it.
            #expect(try store.bond(for: BDAddress(littleEndian: [1, 0, 0, 0, 0, 0xF0], kind: .public)) == bond)
            // Pairing again replaces the bond.
            var again = bond
            again.ltk = [UInt8](repeating: 0xEE, count: 16)
            try store.save(again)
            #expect(try store.all().count == 2)
            #expect(try store.bond(for: radio)?.ltk == again.ltk)
            #expect(try store.forget(identity))
            #expect(try !store.forget(radio))
            #expect(try store.all().count == 1)
        }
    }

    @Test func localIRKIsMadeOnceAndKept() throws {
        try withStore { store, _ in
            let irk = try store.localIRK()
            #expect(irk.count == 16 && irk != [UInt8](repeating: 0, count: 16))
            try store.save(fullBond(radio, seed: 1))
            #expect(try BondStore(path: store.path).localIRK() == irk)
        }
    }

    @Test func concurrentSavesLoseNothing() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-smp-bonds-\(UUID().uuidString)").path
        let store = BondStore(path: root + "/ble/bonds.json")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                let bond = fullBond(BDAddress(littleEndian: [UInt8(i), 0, 0, 0, 0, 0xF0], kind: .random), seed: UInt8(i))
                group.addTask { try store.save(bond) }
            }
            try await group.waitForAll()
        }
        let count = try store.all().count
        try FileManager.default.removeItem(atPath: root)
        #expect(count == 8)
    }

    @Test func problemsAreTypedErrorsWithThePath() throws {
        try withStore { store, root in
            // A file where the directory should be.
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/meshport"))
            do throws(BondStoreError) {
                try store.save(fullBond(radio, seed: 1))
                Issue.record("saved below a file")
            } catch {
                #expect(error.path == store.path && error.description.contains(store.path))
            }
            try FileManager.default.removeItem(atPath: root + "/meshport")
            try FileManager.default.createDirectory(atPath: root + "/meshport/ble", withIntermediateDirectories: true)
            try Data("{\"bonds\": 3}".utf8).write(to: URL(fileURLWithPath: store.path))
            do throws(BondStoreError) {
                _ = try store.all()
                Issue.record("read a broken file")
            } catch {
                #expect(error.path == store.path && error.reason.contains("not a bond file"))
            }
        }
    }

    @Test func defaultPathFollowsXDG() {
        #expect(BondStore.defaultPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/meshport/ble/bonds.json")
        #expect(BondStore.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share/meshport/ble/bonds.json")
        #expect(BondStore.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/meshport/ble/bonds.json")
    }
}
