import MeshDriverABI
import MeshDriverKit

/// One open USB serial radio: a claimed device, its chip set up, bulk IN and OUT transfers
/// completed on the link's own event thread. `close` lets queued writes go out, stops
/// reading, lets the chip tidy up, hands the interfaces back to the kernel and ends the
/// thread, so no callback runs after it returns.
final class USBLink: MeshLink, @unchecked Sendable {
    private let context: USBContext
    private let handle: USBDeviceHandle
    private let chip: any SerialChip
    private let plan: InterfacePlan
    private let loop: USBEventLoop
    private let reader: BulkReader
    private let writer: BulkWriter
    let describe: String

    /// Takes over `handle` (claimed, chip set up) once it returns; on a throw the caller still owns it.
    init(context: USBContext, handle: USBDeviceHandle, chip: any SerialChip, plan: InterfacePlan,
         events: LinkEvents, describe: String) throws(USBError) {
        self.context = context
        self.handle = handle
        self.chip = chip
        self.plan = plan
        self.describe = describe
        writer = BulkWriter(handle: handle, endpoint: plan.bulkOut, zeroLengthPackets: chip.endsTransfersWithZeroLengthPacket, describe: describe)
        reader = try BulkReader(handle: handle, endpoint: plan.bulkIn, chip: chip, describe: describe,
                                onData: { events.received($0) },
                                onEnd: { events.linkLost(DriverFailure(MESHPORT_ERR_LINK_LOST, $0.description)) })
        do {
            loop = try USBEventLoop(context, poll: { [reader] in reader.retryDue() })
        } catch {
            reader.free()
            throw error
        }
        do {
            try reader.start()
        } catch {
            loop.stop()
            reader.free()
            throw error
        }
    }

    func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(DriverFailure) {
        do {
            try writer.write(bytes)
        } catch {
            throw USBDriver.failure(error)
        }
    }

    func close() {
        // Both, whatever the first answers: each cancels its own transfers.
        let written = writer.stop()
        let idle = reader.stop() && written
        chip.close(handle, plan: plan)
        loop.stop()
        guard idle else {
            // A transfer libusb never gave back: its memory and the context must outlive us.
            Leaked.keep(self)
            return
        }
        reader.free()
        writer.free()
        handle.close()
    }
}

/// Objects kept for the life of the process because freeing them could crash.
enum Leaked {
    /// One retain that is never released.
    static func keep(_ object: AnyObject) { _ = Unmanaged.passRetained(object) }
}
