import MeshConformance
import MeshSim
import MeshTransport

/// The conformance suite over `url`. The far side is `meshport sim` with its default mesh
/// unless `contacts` says otherwise; when it drops the link (the link-loss check), the device
/// leaves the guest's bus until QEMU reconnects (Docs/usb.md).
func conformance(url: String, driver: LoadedDriver, missing: String, contacts: Int?) async -> ConformanceReport {
    var suite = ConformanceSuite(driverName: driver.name, url: url, linkKind: driver.linkKind, maxFrameSize: driver.maxFrameSize,
                                 makeTransport: { PluginTransport(url: try TransportURL(url), driver: driver) },
                                 missingDevice: { PluginTransport(url: try TransportURL(missing), driver: driver) })
    suite.expectedContacts = contacts ?? DefaultMesh.nodeCount
    return await suite.run()
}

extension ConformanceReport {
    /// Adds a check run outside the suite, counted like the suite's own.
    mutating func add(_ check: ConformanceCheck, at index: Int? = nil) {
        checks.insert(check, at: index ?? checks.count)
        switch check.result {
        case .passed: passed += 1
        case .failed: failed += 1
        case .skipped: skipped += 1
        }
    }
}
