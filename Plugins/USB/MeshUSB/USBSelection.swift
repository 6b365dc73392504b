/// Picks the one device a URL names among those on the buses. Serial numbers are read only
/// when the URL gives one (reading opens the device).
enum USBSelection {
    static func select(_ devices: [USBDeviceEntry], _ options: USBOptions) throws(USBError) -> (USBDeviceEntry, USBDeviceHandle?) {
        var candidates = devices.filter { $0.vendorID == options.vendorID && $0.productID == options.productID }
        if let bus = options.bus { candidates = candidates.filter { $0.bus == bus } }
        if let path = options.portPath { candidates = candidates.filter { $0.portPath == path } }
        guard !candidates.isEmpty else {
            throw USBError(.notFound, "no USB device \(options.describe)", fix: "is the radio plugged in? meshport scan lists USB radios")
        }
        guard let serial = options.serial else {
            guard candidates.count == 1 else {
                let places = candidates.map(\.location).joined(separator: "; ")
                throw USBError(.ambiguous, "\(candidates.count) devices match \(options.describe): \(places)",
                               fix: "add ?serial=... or ?bus=N&port=P to the URL; meshport scan lists each with its URL")
            }
            return (candidates[0], nil)
        }
        var denied: USBError?
        var matches: [(USBDeviceEntry, USBDeviceHandle)] = []
        for entry in candidates {
            let handle: USBDeviceHandle
            do {
                handle = try USBDeviceHandle(entry)
            } catch {
                if error.kind == .permissionDenied { denied = error }
                continue
            }
            if handle.serial == serial { matches.append((entry, handle)) } else { handle.close() }
        }
        // Cheap chips often share one serial number: then it names no single device.
        guard matches.count <= 1 else {
            let places = matches.map(\.0.location).joined(separator: "; ")
            for (_, handle) in matches { handle.close() }
            throw USBError(.ambiguous, "\(matches.count) devices match \(options.describe): \(places)",
                           fix: "use ?bus=N&port=P instead of the serial number; meshport scan lists each device's place")
        }
        if let (entry, handle) = matches.first { return (entry, handle) }
        // Without access no serial number can be read: say that, not "not found".
        if let denied { throw denied }
        throw USBError(.notFound, "no USB device \(options.describe)", fix: "meshport scan lists the serial numbers of connected radios")
    }
}
