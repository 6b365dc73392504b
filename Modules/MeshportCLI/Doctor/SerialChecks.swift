import MeshSerial

/// Each serial port a radio may sit behind, and whether the user may open it.
enum SerialChecks {
    static func run(_ env: DoctorEnvironment) -> [DoctorCheck] {
        let ports = SerialDiscovery.ports(root: env.root)
        guard !ports.isEmpty else { return [.skipped("serial ports", "no serial port (/dev/ttyUSB*, /dev/ttyACM*)")] }
        return ports.map { port in
            let name = "serial \(port.url)"
            guard let file = FileAccess(env.path(port.device)) else {
                return .problem(name, "\(port.device) is gone", fix: "plug the radio in again, then run meshport doctor again")
            }
            guard !file.mayReadWrite(env) else { return .ok(name, "\(port.details); you may open it") }
            return .problem(name, "\(port.details): you may not open it (\(file.describe(env)))", fix: fix(file, device: port.device, env))
        }
    }

    /// Joining the device's group when its group may read and write, else a mode for it.
    private static func fix(_ file: FileAccess, device: String, _ env: DoctorEnvironment) -> String {
        file.joinGroup(env) ?? "sudo chgrp dialout \(device) && sudo chmod 0660 \(device) (until the next plug-in; "
            + "a udev rule with GROUP=\"dialout\", MODE=\"0660\" makes it last)"
    }
}
