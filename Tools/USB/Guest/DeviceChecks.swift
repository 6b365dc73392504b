import Foundation
import MeshConformance
import MeshDriverABI
import MeshTransport
#if canImport(Glibc)
import Glibc
#endif

/// What a user meets before and around the suite, on the real device in the guest: discovery
/// (the URL `meshport scan` would print) and, without the rights to the device, the permission
/// error with its fix.
enum DeviceChecks {
    /// The discovered URL that starts with `prefix` (`usb://VID:PID`, `ble://ADDRESS`), and the
    /// check that recorded it. A usb:// URL must name one device (by serial number, or bus and
    /// port); a BLE address is one.
    static func discover(_ prefix: String, driver: LoadedDriver) -> (url: String?, check: ConformanceCheck) {
        let start = ContinuousClock.now
        do {
            let radios = try driver.discover()
            guard let radio = radios.first(where: { $0.url == prefix || $0.url.hasPrefix(prefix + "?") }) else {
                return (nil, check("discovery", start, .failed, "\(prefix) not among \(radios.map(\.url))"))
            }
            guard !radio.url.hasPrefix("usb://") || radio.url.contains("?serial=") || radio.url.contains("&port=") else {
                return (nil, check("discovery", start, .failed, "\(radio.url) does not name one device"))
            }
            return (radio.url, check("discovery", start, .passed, "\(radio.url) \"\(radio.label)\": \(radio.details)"))
        } catch {
            return (nil, check("discovery", start, .failed, "\(error)"))
        }
    }

    /// Opens `url` as an unprivileged user, in a child process (`MeshportGuest without-access`,
    /// `unprivilegedOpen`): the permission error must name its fix (`fix`: "udev" for usb://,
    /// "setcap cap_net_admin" for the HCI user channel). A child, because this process cannot
    /// become one: once the async main waits, its main thread is parked in libdispatch's
    /// dispatch_main (which ends it as a pthread and holds it in sigsuspend), and glibc's setuid
    /// on another thread passes it over. Seen in the guest: the main thread kept uid 0 and every
    /// capability while the others dropped them.
    static func withoutAccess(_ url: String, fix: String) async -> ConformanceCheck {
        let start = ContinuousClock.now
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["without-access", url, fix]
        let out = Pipe()
        child.standardOutput = out
        do {
            try child.run()
        } catch {
            return check(withoutAccessName, start, .failed, "cannot start the unprivileged child: \(error)")
        }
        // Blocks one thread while the child runs (well under a second); nothing else runs meanwhile.
        let data = out.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        do {
            return try JSONDecoder().decode(ConformanceCheck.self, from: data)
        } catch {
            return check(withoutAccessName, start, .failed, "the unprivileged child (exit status \(child.terminationStatus)) reported no check: \(String(decoding: data, as: UTF8.self))")
        }
    }

    static let withoutAccessName = "permission denied without access"

    /// The child's side, first thing and before any `await` (which starts threads): gives up
    /// root's ids while this is the process's only thread, so every thread made later has none,
    /// and no capability (dropping uid 0 clears them), as a user without the udev rule or the
    /// file capability is. Nil when done, else why not.
    static func dropRoot() -> String? {
        guard setgroups(0, nil) == 0, setgid(65534) == 0, setuid(65534) == 0 else {
            return "cannot drop to uid 65534: \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// The child's side, then: opens `url` (after `dropRoot` gave `dropped`).
    static func unprivilegedOpen(_ url: String, driver: LoadedDriver, fix expected: String, dropped: String?) async -> ConformanceCheck {
        let start = ContinuousClock.now
        if let dropped { return check(withoutAccessName, start, .failed, dropped) }
        let transport: PluginTransport
        do {
            transport = PluginTransport(url: try TransportURL(url), driver: driver)
            try await transport.open()
        } catch let TransportError.permissionDenied(_, reason, fix) {
            // Checked after the open, as its threads ran: none may have had a capability.
            let privileged = threadsWithCapabilities()
            guard privileged.isEmpty else { return check(withoutAccessName, start, .failed, "threads with capabilities as uid 65534: \(privileged)") }
            let says = "\(reason) \(fix)"
            return check(withoutAccessName, start, says.contains(expected) ? .passed : .failed, "as uid 65534 with no capabilities: \(says)")
        } catch {
            return check(withoutAccessName, start, .failed, "expected permission denied, got: \(error)")
        }
        await transport.close()
        return check(withoutAccessName, start, .failed, "opened \(url) as uid 65534")
    }

    /// This process's threads that have effective capabilities (they belong to threads), as
    /// "tid name uid CapEff"; a thread that cannot be read counts as one, so the check fails.
    private static func threadsWithCapabilities() -> [String] {
        let tasks: [String]
        do {
            tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        } catch {
            return ["cannot list /proc/self/task: \(error)"]
        }
        return tasks.compactMap { task in
            let status: String
            do {
                status = try String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)
            } catch {
                // A thread that ended since the listing has no status any more.
                return FileManager.default.fileExists(atPath: "/proc/self/task/\(task)") ? "\(task): cannot read its status: \(error)" : nil
            }
            var fields: [Substring: Substring] = [:]
            for line in status.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon]] = line[line.index(after: colon)...].drop { $0 == "\t" || $0 == " " }
            }
            guard let caps = fields["CapEff"], UInt64(caps, radix: 16) != 0 else { return nil }
            return "\(task) \(fields["Name"] ?? "?") uid \(fields["Uid"] ?? "?") CapEff \(caps)"
        }
    }

    static func check(_ name: String, _ start: ContinuousClock.Instant, _ result: ConformanceCheck.Result, _ detail: String) -> ConformanceCheck {
        let d = ContinuousClock.now - start
        return ConformanceCheck(name: name, result: result, seconds: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, detail: detail)
    }
}
