@testable import MeshBLE
import Testing

@Suite struct L2CAPTests {
    @Test func fragmentsAndReassemblesAtEveryBufferSize() throws {
        let payload = [UInt8](0..<69)  // an SMP Pairing Public Key
        for size in [5, 27, 64, 251] {
            let fragments = L2CAPReassembler.fragments(handle: 1, cid: L2CAPChannel.smp, payload: payload, bufferSize: size)
            #expect(fragments.allSatisfy { $0.data.count <= size })
            #expect(fragments.first?.boundary == .firstNonFlushable && fragments.dropFirst().allSatisfy { $0.boundary == .continuing })
            var r = L2CAPReassembler()
            var out: (cid: UInt16, payload: [UInt8])?
            for (i, f) in fragments.enumerated() {
                // The controller marks first fragments flushable.
                var f = f
                if i == 0 { f.boundary = .firstFlushable }
                out = try r.push(f)
                if i < fragments.count - 1 { #expect(out == nil) }
            }
            #expect(out?.cid == L2CAPChannel.smp && out?.payload == payload)
        }
        // 69 bytes + 4 of header over 27-byte buffers: 27 + 27 + 19.
        #expect(L2CAPReassembler.fragments(handle: 1, cid: 6, payload: payload, bufferSize: 27).map(\.data.count) == [27, 27, 19])
    }

    @Test func continuationWithoutStartIsDropped() {
        var r = L2CAPReassembler()
        #expect(throws: L2CAPError.unexpectedContinuation(handle: 1)) { try r.push(ACLData(handle: 1, boundary: .continuing, data: [1, 2])) }
    }

    @Test func overlongFrameIsDroppedAndTheNextOneWorks() throws {
        var r = L2CAPReassembler()
        #expect(throws: L2CAPError.overlong(handle: 1, declared: 1, received: 2)) {
            try r.push(ACLData(handle: 1, boundary: .firstFlushable, data: [1, 0, 4, 0, 9, 9]))
        }
        let ok = try r.push(ACLData(handle: 1, boundary: .firstFlushable, data: [1, 0, 4, 0, 7]))
        #expect(ok?.payload == [7])
    }

    @Test func signallingAcceptsValidParameterUpdatesAndRejectsOthers() {
        // Request id 7: 15-30 ms, latency 0, 4 s.
        let ok = SignallingChannel.answer([0x12, 7, 8, 0, 12, 0, 24, 0, 0, 0, 0x90, 0x01])
        #expect(ok.reply == [0x13, 7, 2, 0, 0, 0])
        #expect(ok.apply == ConnectionParameters(intervalMin: 12, intervalMax: 24, latency: 0, supervisionTimeout: 400))
        // 100-125 ms with a 100 ms timeout: shorter than twice the interval.
        let bad = SignallingChannel.answer([0x12, 8, 8, 0, 80, 0, 100, 0, 0, 0, 10, 0])
        #expect(bad.reply == [0x13, 8, 2, 0, 1, 0] && bad.apply == nil)
        #expect(SignallingChannel.answer([0x0A, 9, 2, 0, 1, 0]).reply == [0x01, 9, 2, 0, 0, 0])
        #expect(SignallingChannel.answer([0x12]).reply == nil)
    }
}
