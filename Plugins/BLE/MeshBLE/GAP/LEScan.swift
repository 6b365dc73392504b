/// Active scanning for a while, advertisements and scan responses merged per address.
public enum LEScan {
    /// One advertiser heard during a scan.
    public struct Found: Equatable, Sendable {
        public var address: BDAddress
        public var name: String?
        public var services: [BLEUUID]
        /// Strongest signal heard, dBm.
        public var rssi: Int8?
        public var connectable: Bool

        /// A MeshCore companion radio: advertises the Nordic UART Service or a MeshCore-* name.
        public var isCompanion: Bool { services.contains(.nus) || (name?.hasPrefix("MeshCore-") ?? false) }
    }

    /// Folds reports into one entry per address, in order of first sighting.
    public struct Collector: Sendable {
        public private(set) var found: [Found] = []

        public init() {}

        public mutating func add(_ report: AdvertisingReport) {
            let name = report.data.localName
            let services = report.data.serviceUUIDs
            if let i = found.firstIndex(where: { $0.address == report.address }) {
                if let name { found[i].name = name }
                for s in services where !found[i].services.contains(s) { found[i].services.append(s) }
                if let r = report.rssi, r > (found[i].rssi ?? Int8.min) { found[i].rssi = r }
                if !report.isScanResponse { found[i].connectable = report.isConnectable }
            } else {
                found.append(Found(address: report.address, name: name, services: services, rssi: report.rssi,
                                   connectable: report.isScanResponse || report.isConnectable))
            }
        }
    }

    /// Scans actively for `duration` and returns every advertiser heard.
    public static func scan(_ host: HCIHost, for duration: Duration) async throws -> [Found] {
        let reports = try await host.startScan(active: true)
        let stop = Task {
            try await Task.sleep(for: duration)
            try await host.stopScan()
        }
        var collector = Collector()
        for await report in reports { collector.add(report) }
        try await stop.value
        return collector.found
    }
}
