import CUSBFS
@testable import MeshUSB
import Testing

/// The bulk writer's rules, without a device: how much may wait in usbfs, which failure later
/// writes see, what stopping refuses and returns, and which URBs the pool keeps.
struct WriteQueueTests {
    /// URBs with their own buffers, freed when the test ends.
    final class Transfers {
        private var made: [WriteQueue.Transfer] = []

        func make(_ bytes: Int) -> WriteQueue.Transfer {
            let t = URB.allocate(endpoint: 0x02, buffer: .allocate(byteCount: max(bytes, WriteQueue.slotBytes), alignment: 8), length: bytes)
            made.append(t)
            return t
        }

        deinit {
            for t in made {
                t.pointee.buffer.deallocate()
                URB.free(t)
            }
        }
    }

    let closing = USBError(.other, "closing")

    @Test func writesWaitOnlyWhenTheQueueIsFull() {
        let transfers = Transfers()
        var queue = WriteQueue()
        #expect(queue.admission(WriteQueue.maxQueuedBytes * 2, closing: closing) == .admit, "an empty queue takes any write")
        var listed = 0
        while listed + 176 <= WriteQueue.maxQueuedBytes {
            #expect(queue.admission(176, closing: closing) == .admit)
            queue.list(transfers.make(176))
            listed += 176
        }
        #expect(queue.queuedBytes == listed && queue.inFlight.count == listed / 176)
        #expect(queue.admission(176, closing: closing) == .wait)
        #expect(queue.admission(WriteQueue.maxQueuedBytes - listed, closing: closing) == .admit, "what still fits goes")
        let oldest = queue.inFlight[0]
        _ = queue.finish(oldest, error: nil)
        #expect(queue.admission(176, closing: closing) == .admit, "a completion makes room")
        #expect(queue.queuedBytes == listed - 176 && !queue.inFlight.contains(oldest))
    }

    @Test func theFirstFailureFailsEveryLaterWrite() {
        let transfers = Transfers()
        var queue = WriteQueue()
        let (a, b) = (transfers.make(10), transfers.make(10))
        queue.list(a)
        queue.list(b)
        let stall = USBError(.stalled, "X stalled a write")
        _ = queue.finish(b, error: stall)
        _ = queue.finish(a, error: USBError(.other, "a later report"))
        #expect(queue.failure == stall)
        #expect(queue.admission(1, closing: closing) == .refuse(stall))
        queue.fail(.unplugged("X"))
        #expect(queue.failure == stall, "the first failure stays")
    }

    @Test func anUnplugFailsLaterWritesUnlessStopping() {
        var running = WriteQueue()
        running.fail(.unplugged("X"))
        #expect(running.admission(1, closing: closing) == .refuse(.unplugged("X")))

        var stopping = WriteQueue()
        _ = stopping.stop()
        stopping.fail(.unplugged("X"))
        #expect(stopping.failure == nil)
        #expect(stopping.admission(1, closing: closing) == .refuse(closing))
    }

    @Test func stoppingReturnsWhatUsbfsHoldsAndRefusesWrites() {
        let transfers = Transfers()
        var queue = WriteQueue()
        let held = [transfers.make(5), transfers.make(6)]
        held.forEach { queue.list($0) }
        let cancelled = queue.stop()
        #expect(cancelled == held)
        #expect(queue.admission(1, closing: closing) == .refuse(closing))
        // Cancelled URBs come back as unplugged; while stopping that is not a failure, and
        // nothing goes back to the pool.
        let pooled = held.map { queue.finish($0, error: .unplugged("X")) }
        #expect(pooled == [false, false])
        #expect(queue.failure == nil && queue.inFlight.isEmpty && queue.queuedBytes == 0)
        let spare = queue.takeSpare()
        #expect(spare.isEmpty)
    }

    @Test func thePoolKeepsFrameSizedTransfersUpToItsLimit() {
        let transfers = Transfers()
        var queue = WriteQueue()
        let none = queue.reuse(for: 10)
        #expect(none == nil, "nothing pooled yet")
        let big = transfers.make(WriteQueue.slotBytes + 1)
        queue.list(big)
        let bigPooled = queue.finish(big, error: nil)
        #expect(!bigPooled, "a transfer larger than a slot is freed, not pooled")
        var kept = 0
        for _ in 0..<(WriteQueue.keptSpare + 3) {
            let t = transfers.make(176)
            queue.list(t)
            if queue.finish(t, error: nil) { kept += 1 }
        }
        #expect(kept == WriteQueue.keptSpare)
        let forLarge = queue.reuse(for: WriteQueue.slotBytes + 1)
        #expect(forLarge == nil, "a large write gets its own transfer")
        let forSlot = queue.reuse(for: WriteQueue.slotBytes)
        #expect(forSlot != nil)
        let handedOver = queue.takeSpare()
        #expect(handedOver.count == WriteQueue.keptSpare - 1)
        let afterwards = queue.reuse(for: 10)
        #expect(afterwards == nil, "the pool was handed over")
    }
}
