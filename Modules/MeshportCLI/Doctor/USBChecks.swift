import Foundation
import MeshUSB

/// USB radios of the chips the USB driver knows, whether the user may open their usbfs nodes,
/// and whether Meshport's udev rule (Tools/USB/99-meshport-usb.rules) is installed.
enum USBChecks {
    static let ruleFile = "99-meshport-usb.rules"
    static let ruleFolders = ["/etc/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]
    static let installRule = "sudo cp Tools/USB/\(ruleFile) /etc/udev/rules.d/ (from the Meshport source) "
        + "&& sudo udevadm control --reload && sudo udevadm trigger, then plug the radio in again"

    static func run(_ env: DoctorEnvironment) -> [DoctorCheck] {
        let radios = knownDevices(env)
        var checks: [DoctorCheck] = []
        if radios.isEmpty {
            checks.append(.skipped("usb radios", "no USB radio of a chip the usb driver knows (Docs/usb.md)"))
        }
        for radio in radios {
            let name = "usb \(usbID(radio.device.vendorID, radio.device.productID)) at \(radio.node)"
            guard let file = FileAccess(env.path(radio.node)) else {
                checks.append(.problem(name, "\(radio.device.label): no device node \(radio.node)", fix: "plug the radio in again, then run meshport doctor again"))
                continue
            }
            if file.mayReadWrite(env) {
                checks.append(.ok(name, "\(radio.device.label); you may open it"))
            } else {
                checks.append(.problem(name, "\(radio.device.label): you may not open it (\(file.describe(env)))", fix: fix(file, env)))
            }
        }
        checks.append(ruleCheck(env, needed: !radios.isEmpty))
        return checks
    }

    private static func fix(_ file: FileAccess, _ env: DoctorEnvironment) -> String {
        guard ruleInstalled(env) != nil else { return installRule }
        return file.joinGroup(env) ?? "plug the radio in again so the installed udev rule applies (sudo udevadm trigger)"
    }

    private static func ruleCheck(_ env: DoctorEnvironment, needed: Bool) -> DoctorCheck {
        if let installed = ruleInstalled(env) { return .ok("udev rule", "\(installed) is installed") }
        let detail = "\(ruleFile) is not installed in \(ruleFolders.joined(separator: ", "))"
        guard needed else { return .skipped("udev rule", detail + "; only usb:// radios need it") }
        return .problem("udev rule", detail, fix: installRule)
    }

    /// The installed rule's path, nil when none is.
    private static func ruleInstalled(_ env: DoctorEnvironment) -> String? {
        ruleFolders.map { "\($0)/\(ruleFile)" }.first(where: env.exists)
    }

    /// The known chips among /sys/bus/usb/devices, each with its usbfs node.
    private static func knownDevices(_ env: DoctorEnvironment) -> [(device: KnownDevice, node: String)] {
        env.entries("/sys/bus/usb/devices").compactMap { name in
            let dir = "/sys/bus/usb/devices/\(name)"
            guard let vid = hex(env.text("\(dir)/idVendor")), let pid = hex(env.text("\(dir)/idProduct")),
                  let device = KnownDevice.find(vendorID: vid, productID: pid),
                  let bus = env.text("\(dir)/busnum").flatMap({ Int($0) }), let number = env.text("\(dir)/devnum").flatMap({ Int($0) })
            else { return nil }
            return (device, String(format: "/dev/bus/usb/%03d/%03d", bus, number))
        }
    }

    private static func hex(_ text: String?) -> UInt16? { text.flatMap { UInt16($0, radix: 16) } }
}
