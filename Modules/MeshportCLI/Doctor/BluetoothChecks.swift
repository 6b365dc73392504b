import Foundation

/// Bluetooth adapters for the ble:// driver's HCI user channel: each must be unblocked and
/// not kept up by bluetoothd, and the process needs CAP_NET_ADMIN and CAP_NET_RAW.
enum BluetoothChecks {
    static let capNetAdmin = 12, capNetRaw = 13
    static let setcap = "sudo setcap cap_net_admin,cap_net_raw+ep $(command -v meshport) (or run meshport as the meshport service, which has them)"

    static func run(_ env: DoctorEnvironment) -> [DoctorCheck] {
        let folder = "/sys/class/bluetooth"
        let adapters = env.entries(folder).compactMap { name -> Int? in
            guard name.hasPrefix("hci"), let index = Int(name.dropFirst(3)) else { return nil }   // hci0:256 is a connection
            return index
        }.sorted()
        guard !adapters.isEmpty else {
            return [.skipped("bluetooth", "no Bluetooth adapter (/sys/class/bluetooth); ble:// radios need one")]
        }
        let bluez = bluetoothdRuns(env)
        var checks = adapters.map { index -> DoctorCheck in
            let name = "bluetooth hci\(index)"
            if let blocked = rfkillBlock(env, adapter: "\(folder)/hci\(index)") {
                return .problem(name, "blocked by rfkill (\(blocked))",
                                fix: blocked == "hard" ? "switch the adapter on (its hardware switch or key)" : "sudo rfkill unblock bluetooth")
            }
            if bluez {
                return .problem(name, "bluetoothd is running and keeps hci\(index) up; the HCI user channel needs it down",
                                fix: "sudo btmgmt --index \(index) power off (or stop BlueZ: sudo systemctl stop bluetooth.service)")
            }
            return .ok(name, "free for the HCI user channel")
        }
        checks.append(capabilities(env))
        return checks
    }

    /// CapEff of the process, as /proc/self/status gives it.
    static func capabilities(_ env: DoctorEnvironment) -> DoctorCheck {
        let status = "/proc/self/status"
        guard let text = env.text(status),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16) else {
            return .problem("capabilities", "cannot read CapEff from \(status)", fix: "mount /proc (the kernel's process information), then run meshport doctor again")
        }
        let missing = [("CAP_NET_ADMIN", capNetAdmin), ("CAP_NET_RAW", capNetRaw)].filter { mask & (1 << UInt64($0.1)) == 0 }.map(\.0)
        guard !missing.isEmpty else { return .ok("capabilities", "CAP_NET_ADMIN and CAP_NET_RAW, as the HCI user channel needs") }
        return .problem("capabilities", "this process lacks \(missing.joined(separator: " and ")), which the HCI user channel needs", fix: setcap)
    }

    /// Whether a process named bluetoothd runs (BlueZ).
    private static func bluetoothdRuns(_ env: DoctorEnvironment) -> Bool {
        env.entries("/proc").contains { pid in pid.allSatisfy(\.isNumber) && env.text("/proc/\(pid)/comm") == "bluetoothd" }
    }

    /// "hard" or "soft" when the adapter's rfkill switch blocks it.
    private static func rfkillBlock(_ env: DoctorEnvironment, adapter: String) -> String? {
        for name in env.entries(adapter) where name.hasPrefix("rfkill") {
            for kind in ["hard", "soft"] where env.text("\(adapter)/\(name)/\(kind)") == "1" { return kind }
        }
        return nil
    }
}
