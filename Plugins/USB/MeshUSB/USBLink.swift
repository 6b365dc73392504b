import MeshDriverABI
import MeshDriverKit

/// One open USB serial radio: a claimed device, its chip set up, bulk IN and OUT URBs
/// completed on the link's own reaper thread. `close` lets queued writes go out, stops
/// reading, ends the thread, lets the chip tidy up and hands the interfaces back to the
/// kernel, so no callback runs after it returns.
final class USBLink: MeshLink, @unchecked Sendable {
    private let context: USBContext
    private let handle: USBDeviceHandle
    private let chip: any SerialChip
    private let plan: InterfacePlan
    private let reaper: URBReaper
    private let reader: BulkReader
    private let writer: BulkWriter
    private let parts = Parts()
    let describe: String

    /// Takes over `handle` (claimed, chip set up) once it returns; on a throw the caller still owns it.
    init(context: USBContext, handle: USBDeviceHandle, chip: any SerialChip, plan: InterfacePlan,
         events: LinkEvents, describe: String) throws(USBError) {
        self.context = context
        self.handle = handle
        self.chip = chip
        self.plan = plan
        self.describe = describe
        guard let fd = context.deviceDescriptor() else {
            throw USBError(.other, "\(describe): libusb did not list the device's usbfs descriptor")
        }
        // The reaper hands completions to the reader and writer, which need the reaper to submit.
        let parts = parts
        reaper = URBReaper(fd: fd, onIn: { parts.reader?.completed($0) }, onOut: { parts.writer?.completed($0) },
                           onGone: { parts.reader?.gone(); parts.writer?.gone() },
                           poll: { parts.reader?.retryDue() ?? false })
        writer = BulkWriter(reaper: reaper, endpoint: plan.bulkOut, zeroLengthPackets: chip.endsTransfersWithZeroLengthPacket, describe: describe)
        reader = try BulkReader(handle: handle, reaper: reaper, endpoint: plan.bulkIn, chip: chip, describe: describe,
                                onData: { events.received($0) },
                                onEnd: { events.linkLost(DriverFailure(MESHPORT_ERR_LINK_LOST, $0.message, fix: $0.fix)) })
        parts.reader = reader
        parts.writer = writer
        do {
            try reaper.start()
        } catch {
            parts.clear()
            reader.free()
            throw error
        }
        do {
            try reader.start()
        } catch {
            reaper.stop()
            parts.clear()
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
        // Both, whatever the first answers: each cancels its own URBs.
        let written = writer.stop()
        let idle = reader.stop() && written && reaper.stop()
        guard idle else {
            // A URB usbfs never gave back, or a reaper still running: their memory and the
            // descriptor must outlive us, and libusb must not reap beside the thread.
            Leaked.keep(self)
            return
        }
        parts.clear()
        chip.close(handle, plan: plan)
        reader.free()
        writer.free()
        handle.close()
    }
}

/// The reader and writer, set once both exist; read by the reaper thread, which starts after.
/// Cleared once the thread has ended: the reader holds the reaper, whose handlers hold this.
private final class Parts: @unchecked Sendable {
    var reader: BulkReader?
    var writer: BulkWriter?

    func clear() {
        reader = nil
        writer = nil
    }
}

/// Objects kept for the life of the process because freeing them could crash.
enum Leaked {
    /// One retain that is never released.
    static func keep(_ object: AnyObject) { _ = Unmanaged.passRetained(object) }
}
