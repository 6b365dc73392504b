import Foundation
import MeshportTestSupport
import Testing
@testable import MeshportCLI

/// `meshport doctor`'s device checks (serial ports, USB radios, Bluetooth adapters) against
/// prepared /dev, /sys and /proc trees and a made-up user.
@Suite(.timeLimit(.minutes(1))) struct DoctorDeviceTests {
    @Test func serialPortOfAGroupTheUserIsNotIn() throws {
        let machine = DoctorMachine()
        let group = try machine.device("/dev/ttyACM0", mode: 0o660)
        let outside = try check("serial serial:///dev/ttyACM0", in: SerialChecks.run(machine.environment()))
        #expect(outside.status == .problem && outside.detail.contains("mode 0660") && outside.detail.contains("group dialout"), "\(outside)")
        #expect(outside.fix == "sudo usermod -aG dialout $USER, then log out and in again")

        let member = try check("serial serial:///dev/ttyACM0", in: SerialChecks.run(machine.environment(groups: [DoctorMachine.user, group])))
        #expect(member.status == .ok && member.fix == nil, "\(member)")
    }

    @Test func serialPortNoGroupMayOpen() throws {
        let machine = DoctorMachine()
        try machine.device("/dev/ttyUSB0", mode: 0o600)
        let port = try check("serial serial:///dev/ttyUSB0", in: SerialChecks.run(machine.environment()))
        #expect(port.status == .problem && port.fix?.hasPrefix("sudo chgrp dialout /dev/ttyUSB0 && sudo chmod 0660 /dev/ttyUSB0") == true, "\(port)")
    }

    @Test func noSerialPortIsSkipped() throws {
        let machine = DoctorMachine()
        try machine.file("/dev/ttyS0")   // a built-in UART: no radio port
        #expect(SerialChecks.run(machine.environment()).map(\.status) == [.skipped])
    }

    /// A CP2102 on bus 1 as device 5 (and a mouse, which is no radio), its usbfs node not
    /// open to the user: without the udev rule the fix installs it; with it, the check of the
    /// rule passes and the device still needs a replug.
    @Test func usbRadioAndTheUdevRule() throws {
        let machine = DoctorMachine()
        for (dir, values) in [("1-1", ["idVendor": "10c4", "idProduct": "ea60", "busnum": "1", "devnum": "5"]),
                              ("1-2", ["idVendor": "046d", "idProduct": "c52b", "busnum": "1", "devnum": "6"])] {
            for (name, value) in values { try machine.file("/sys/bus/usb/devices/\(dir)/\(name)", value + "\n") }
        }
        try machine.device("/dev/bus/usb/001/005", mode: 0o644, groupName: "plugdev")
        try machine.device("/dev/bus/usb/001/006", mode: 0o644, groupName: "plugdev")

        let without = USBChecks.run(machine.environment())
        #expect(without.map(\.name) == ["usb 10c4:ea60 at /dev/bus/usb/001/005", "udev rule"])
        let radio = try check("usb 10c4:ea60 at /dev/bus/usb/001/005", in: without)
        #expect(radio.status == .problem && radio.detail.hasPrefix("CP2102/CP2104") && radio.fix == USBChecks.installRule, "\(radio)")
        #expect(try check("udev rule", in: without).status == .problem)

        try machine.file("/usr/lib/udev/rules.d/99-meshport-usb.rules", "# installed\n")
        let with = USBChecks.run(machine.environment())
        #expect(try check("udev rule", in: with) == .ok("udev rule", "/usr/lib/udev/rules.d/99-meshport-usb.rules is installed"))
        #expect(try check("usb 10c4:ea60 at /dev/bus/usb/001/005", in: with).fix?.hasPrefix("plug the radio in again") == true)
    }

    @Test func noUSBRadioSkipsTheRule() throws {
        let machine = DoctorMachine()
        #expect(USBChecks.run(machine.environment()).map(\.status) == [.skipped, .skipped])
    }

    /// hci0 with bluetoothd running and no capabilities: both are problems with their fixes;
    /// hci0:256 is a connection, not an adapter.
    @Test func bluetoothAdapterHeldByBlueZWithoutCapabilities() throws {
        let machine = DoctorMachine()
        try machine.folder("/sys/class/bluetooth/hci0")
        try machine.folder("/sys/class/bluetooth/hci0:256")
        try machine.file("/proc/812/comm", "bluetoothd\n")
        try machine.file("/proc/self/status", "Name:\tmeshport\nCapEff:\t0000000000000000\n")
        let checks = BluetoothChecks.run(machine.environment())
        #expect(checks.map(\.name) == ["bluetooth hci0", "capabilities"])
        #expect(checks.allSatisfy { $0.status == .problem }, "\(checks)")
        #expect(checks[0].fix == "sudo btmgmt --index 0 power off (or stop BlueZ: sudo systemctl stop bluetooth.service)")
        #expect(checks[1].detail.contains("CAP_NET_ADMIN and CAP_NET_RAW") && checks[1].fix == BluetoothChecks.setcap)
    }

    @Test func bluetoothAdapterFreeWithCapabilities() throws {
        let machine = DoctorMachine()
        try machine.folder("/sys/class/bluetooth/hci1")
        try machine.file("/proc/812/comm", "sshd\n")
        try machine.file("/proc/self/status", "CapEff:\t0000000000003000\n")
        #expect(BluetoothChecks.run(machine.environment()).map(\.status) == [.ok, .ok])
    }

    @Test func bluetoothAdapterBlockedByRfkill() throws {
        let machine = DoctorMachine()
        try machine.file("/sys/class/bluetooth/hci0/rfkill3/soft", "1\n")
        try machine.file("/sys/class/bluetooth/hci0/rfkill3/hard", "0\n")
        try machine.file("/proc/self/status", "CapEff:\t000001ffffffffff\n")
        let adapter = try check("bluetooth hci0", in: BluetoothChecks.run(machine.environment()))
        #expect(adapter.status == .problem && adapter.fix == "sudo rfkill unblock bluetooth", "\(adapter)")
    }

    @Test func noBluetoothAdapterIsSkipped() throws {
        #expect(BluetoothChecks.run(DoctorMachine().environment()).map(\.status) == [.skipped])
    }
}
