import CBluetooth
import Foundation
import MeshBLE
import MeshConformance
import MeshTransport
#if canImport(Glibc)
import Glibc
#endif

/// The HCI user channel on the guest kernel's own adapter (run-in-vm.sh -b: hciN registered
/// through /dev/vhci, its controller emulated on the host): the refusals a user meets while
/// someone else has the adapter, each with what to run.
enum AdapterChecks {
    /// The kernel adapter a ble:// URL's `hci=` names (hci0, hci:0, usb:0); nil without one, or
    /// for a controller that is not a kernel adapter (tcp:, uart:).
    static func adapter(of url: String) -> UInt16? {
        do {
            return try TransportURL(url).parameter("hci").flatMap(userChannelAdapter)
        } catch {
            return nil   // not a URL: the caller's usage message says what it takes
        }
    }

    /// `hciconfig hciN up`: the kernel runs the adapter itself, as BlueZ does on a desktop. Opening
    /// must fail as busy, naming the command that powers it off; then `hciconfig hciN down` (that
    /// fix) hands it back for the checks after this one.
    static func busyWhileKernelHasItUp(_ url: String, adapter: UInt16, driver: LoadedDriver) async -> ConformanceCheck {
        let name = "adapter busy while the kernel has it up"
        let start = ContinuousClock.now
        let control = HCIDeviceControl(adapter)
        do {
            try control.up()
        } catch {
            return DeviceChecks.check(name, start, .failed, "\(error)")
        }
        let outcome = await open(url, driver: driver)
        do {
            try control.down()
        } catch {
            return DeviceChecks.check(name, start, .failed, "\(describe(outcome)); then \(error)")
        }
        guard case let .busy(_, reason)? = outcome else {
            return DeviceChecks.check(name, start, .failed, "expected busy, got: \(describe(outcome))")
        }
        let fix = "sudo btmgmt --index \(adapter) power off"
        return DeviceChecks.check(name, start, reason.contains(fix) ? .passed : .failed, "hci\(adapter) up: \(reason)")
    }

    /// Another program holds hciN through the user channel (a second meshport, a Bumble host):
    /// the kernel admits one. Opening must fail as busy and say so.
    static func takenByAnotherProgram(_ url: String, adapter: UInt16, driver: LoadedDriver) async -> ConformanceCheck {
        let name = "adapter busy while another program holds it"
        let start = ContinuousClock.now
        let other: any HCITransport
        do {
            other = try openHCITransport("hci\(adapter)")   // binds the user channel, as that program did
        } catch {
            return DeviceChecks.check(name, start, .failed, "cannot take hci\(adapter) for the other program: \(error)")
        }
        let outcome = await open(url, driver: driver)
        other.close()
        guard case let .busy(_, reason)? = outcome else {
            return DeviceChecks.check(name, start, .failed, "expected busy, got: \(describe(outcome))")
        }
        return DeviceChecks.check(name, start, reason.contains("another program") ? .passed : .failed, reason)
    }

    private static func describe(_ outcome: TransportError?) -> String { outcome.map { "\($0)" } ?? "an open link" }

    /// Opens and closes `url`: the error, or nil when it opened.
    private static func open(_ url: String, driver: LoadedDriver) async -> TransportError? {
        do {
            let transport = PluginTransport(url: try TransportURL(url), driver: driver)
            try await transport.open()
            await transport.close()
            return nil
        } catch let error as TransportError {
            return error
        } catch {
            return .driver(url, reason: "\(error)")
        }
    }
}

/// An HCI socket's device ioctls, as `hciconfig hciN up` and `down` make them (CAP_NET_ADMIN).
/// HCIDEVUP returns once the kernel has initialized the controller (its own HCI commands, here
/// through the bridge to the emulated one).
struct HCIDeviceControl {
    // _IOW('H', 201, int) and _IOW('H', 202, int) from <bluetooth/hci.h>: Swift does not import
    // the macros that compute them.
    private static let devUp: UInt = 0x4004_48C9
    private static let devDown: UInt = 0x4004_48CA

    let adapter: UInt16

    init(_ adapter: UInt16) { self.adapter = adapter }

    func up() throws {
        // EALREADY: up already (the kernel's power-on at registration).
        try request(Self.devUp, "hciconfig hci\(adapter) up", allowing: EALREADY)
    }

    func down() throws { try request(Self.devDown, "hciconfig hci\(adapter) down") }

    private func request(_ code: UInt, _ what: String, allowing tolerated: Int32? = nil) throws {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else { throw GuestFailure("\(what): no HCI socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if ioctl(fd, code, CInt(adapter)) != 0 && errno != tolerated {
            throw GuestFailure("\(what) failed: \(String(cString: strerror(errno)))")
        }
    }
}
