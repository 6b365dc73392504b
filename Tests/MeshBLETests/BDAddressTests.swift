import MeshBLE
import Testing

@Suite struct BDAddressTests {
    @Test func parsesAndWritesBack() throws {
        let a = try BDAddress("f0:00:00:00:00:01", kind: .random)
        #expect(a.description == "F0:00:00:00:00:01")
        #expect(a.littleEndian == [0x01, 0, 0, 0, 0, 0xF0])
        #expect(a.isRandomStatic)
        #expect(BDAddress(littleEndian: a.littleEndian, kind: .random) == a)
    }

    @Test func publicAddressIsNotRandomStatic() throws {
        #expect(try !BDAddress("C0-DE-C0-DE-00-01", kind: .public).isRandomStatic)
    }

    @Test(arguments: ["", "F0:00:00:00:00", "F0:00:00:00:00:0G", "F0:00:00:00:00:001", "F0:00:00:00:00:01:02"])
    func refusesNonAddresses(_ text: String) {
        #expect(throws: BDAddressError(text: text)) { try BDAddress(text, kind: .random) }
    }
}
