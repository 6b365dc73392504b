import MeshBLE
import MeshDriverKit

/// One HCIHost per controller, shared by the links open on it and closed with the last one:
/// a user channel or an H4 port takes one host only.
actor HostPool {
    static let shared = HostPool()

    private var hosts: [String: (host: HCIHost, users: Int)] = [:]
    private var starting: [String: Task<HCIHost, Error>] = [:]

    func acquire(_ spec: String) async throws -> HCIHost {
        if let entry = hosts[spec] {
            hosts[spec] = (entry.host, entry.users + 1)
            return entry.host
        }
        if let pending = starting[spec] {
            let host = try await pending.value
            hosts[spec] = (host, (hosts[spec]?.users ?? 0) + 1)
            return host
        }
        let task = Task {
            let host = HCIHost(transport: try openHCITransport(spec), log: { DriverLog.warning("Bluetooth controller \(spec): \($0)") })
            do {
                try await host.start()
            } catch {
                await host.close()
                throw error
            }
            return host
        }
        starting[spec] = task
        defer { starting[spec] = nil }
        let host = try await task.value
        hosts[spec] = (host, (hosts[spec]?.users ?? 0) + 1)
        return host
    }

    func release(_ spec: String, _ host: HCIHost) async {
        guard let entry = hosts[spec], entry.host === host else { return }
        if entry.users > 1 {
            hosts[spec] = (entry.host, entry.users - 1)
        } else {
            hosts[spec] = nil
            await entry.host.close()
        }
    }

    /// A host whose controller failed is dropped, so the next open starts afresh.
    func discard(_ spec: String, _ host: HCIHost) async {
        if let entry = hosts[spec], entry.host === host {
            hosts[spec] = nil
            await host.close()
        }
    }
}
