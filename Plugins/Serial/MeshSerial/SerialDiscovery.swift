import MeshDriverKit
#if canImport(Glibc)
import Glibc
#endif

/// Lists serial ports a radio may sit behind: /dev/serial/by-id links (stable names),
/// then /dev/ttyUSB* and /dev/ttyACM*, with VID:PID, maker and product read from sysfs.
/// `root` prefixes every path read (a copied /dev and /sys tree); URLs and details name the
/// paths as seen on the machine itself (`meshport doctor` checks each port's access).
public enum SerialDiscovery {
    /// One serial port: its device node, and the URL and words discovery lists it with.
    public struct Port: Sendable, Equatable {
        /// The device node the URL leads to (/dev/ttyUSB0), as seen on the machine itself.
        public let device: String
        public let url: String
        public let label: String
        public let details: String
    }

    static func radios(root: String = "") -> [DiscoveredRadio] {
        ports(root: root).map { DiscoveredRadio(url: $0.url, label: $0.label, details: $0.details) }
    }

    public static func ports(root: String = "") -> [Port] {
        let root = root.isEmpty ? "" : realPath(root) ?? root
        var seen = Set<String>()
        var out: [Port] = []
        for link in entries(root + "/dev/serial/by-id") {
            let full = "/dev/serial/by-id/\(link)"
            guard let target = realPath(root + full).map({ unrooted($0, root) }) else { continue }
            seen.insert(target)
            out.append(port(device: target, url: "serial://\(full)", label: link, root: root))
        }
        for name in entries(root + "/dev") where name.hasPrefix("ttyUSB") || name.hasPrefix("ttyACM") {
            let device = "/dev/\(name)"
            if seen.contains(device) { continue }
            out.append(port(device: device, url: "serial://\(device)", label: name, root: root))
        }
        return out
    }

    private static func port(device: String, url: String, label: String, root: String) -> Port {
        let name = String(device.split(separator: "/").last ?? "")
        var details: [String] = [device]
        if let usb = usbDirectory(forTTY: name, root: root) {
            let vid = read("\(usb)/idVendor"), pid = read("\(usb)/idProduct")
            if let vid, let pid { details.append("\(vid):\(pid)") }
            if let m = read("\(usb)/manufacturer") { details.append(m) }
            if let p = read("\(usb)/product") { details.append(p) }
            if let s = read("\(usb)/serial") { details.append("serial \(s)") }
        }
        return Port(device: device, url: url, label: label, details: details.joined(separator: ", "))
    }

    /// Walks up from the tty's sysfs device to the USB device that has idVendor.
    private static func usbDirectory(forTTY name: String, root: String) -> String? {
        guard var dir = realPath("\(root)/sys/class/tty/\(name)/device") else { return nil }
        for _ in 0..<4 {
            if access("\(dir)/idVendor", R_OK) == 0 { return dir }
            guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { return nil }
            dir = String(dir[..<slash])
        }
        return nil
    }

    private static func unrooted(_ path: String, _ root: String) -> String {
        root.isEmpty || !path.hasPrefix(root) ? path : String(path.dropFirst(root.count))
    }

    private static func entries(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    private static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    private static func read(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var buf = [CChar](repeating: 0, count: 256)
        guard fgets(&buf, Int32(buf.count), f) != nil else { return nil }
        let s = String(decoding: buf.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return s.hasSuffix("\n") ? String(s.dropLast()) : s
    }
}
