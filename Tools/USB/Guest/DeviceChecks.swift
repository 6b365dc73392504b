import Foundation
import MeshConformance
import MeshDriverABI
import MeshTransport
#if canImport(Glibc)
import Glibc
#endif

/// What a user meets before and around the suite, on the real device in the guest: discovery
/// (the URL `meshport scan` would print, naming the device by serial number) and, without
/// access to the device node, the permission error with its fix.
enum DeviceChecks {
    /// The discovered URL for VID:PID, and the check that recorded it.
    static func discover(_ id: String, driver: LoadedDriver) -> (url: String?, check: ConformanceCheck) {
        let start = ContinuousClock.now
        do {
            let radios = try driver.discover()
            guard let radio = radios.first(where: { $0.url.hasPrefix("usb://\(id)") }) else {
                return (nil, check("discovery", start, .failed, "\(id) not among \(radios.map(\.url))"))
            }
            guard radio.url.contains("?serial=") || radio.url.contains("&port=") else {
                return (nil, check("discovery", start, .failed, "\(radio.url) does not name one device"))
            }
            return (radio.url, check("discovery", start, .passed, "\(radio.url) \"\(radio.label)\": \(radio.details)"))
        } catch {
            return (nil, check("discovery", start, .failed, "\(error)"))
        }
    }

    /// Opens `url` as an unprivileged user (irreversible: run last). Root in the guest may open
    /// anything, so the process gives up its ids first, as a user without the udev rule is.
    static func withoutAccess(_ url: String, driver: LoadedDriver) async -> ConformanceCheck {
        let start = ContinuousClock.now
        guard setgid(65534) == 0, setuid(65534) == 0 else {
            return check("permission denied without access", start, .failed, "cannot drop to uid 65534: \(String(cString: strerror(errno)))")
        }
        let transport: PluginTransport
        do {
            transport = PluginTransport(url: try TransportURL(url), driver: driver)
            try await transport.open()
        } catch let TransportError.permissionDenied(_, reason, fix) {
            let says = "\(reason) \(fix)"
            return check("permission denied without access", start, says.contains("udev") ? .passed : .failed, says)
        } catch {
            return check("permission denied without access", start, .failed, "expected permission denied, got: \(error)")
        }
        await transport.close()
        return check("permission denied without access", start, .failed, "opened \(url) without access to its device node")
    }

    static func check(_ name: String, _ start: ContinuousClock.Instant, _ result: ConformanceCheck.Result, _ detail: String) -> ConformanceCheck {
        let d = ContinuousClock.now - start
        return ConformanceCheck(name: name, result: result, seconds: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, detail: detail)
    }
}
