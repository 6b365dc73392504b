import Foundation
import MeshBLE
import MeshDriverABI
import MeshDriverKit

/// `ble://ADDRESS?pin=123456&hci=hci0`: a MeshCore companion radio over Bluetooth LE through
/// Meshport's own LE host (MeshBLE): no BlueZ daemon, no system pairing agent.
enum BLEDriver: MeshDriver {
    static let name = "ble"
    static let version = "1.0.0"
    static let schemes = ["ble"]
    static let linkKind = MESHPORT_LINK_PACKET
    static let maxFrameSize = 176
    static let flags = [MESHPORT_LINK_NEEDS_PAIRING]

    /// Scans `MESHPORT_BLE_SCAN_SECONDS` (default 3) on the configured controller.
    static func discover() throws(DriverFailure) -> [DiscoveredRadio] {
        let environment = ProcessInfo.processInfo.environment
        let config = try loadConfig()
        let spec = environment["MESHPORT_BLE_HCI"] ?? config.hci ?? BLEConfig.defaultHCI
        let seconds = Double(environment["MESHPORT_BLE_SCAN_SECONDS"] ?? "3") ?? 3
        do {
            let found = try blocking {
                let host = try await HostPool.shared.acquire(spec)
                do {
                    let found = try await LEScan.scan(host, for: .milliseconds(Int(seconds * 1000)))
                    await HostPool.shared.release(spec, host)
                    return found
                } catch {
                    await HostPool.shared.discard(spec, host)
                    throw error
                }
            }
            return found.filter(\.isCompanion).map { radio in
                var url = "ble://\(radio.address)"
                if radio.address.kind == .public || !radio.address.isRandomStatic { url += "?type=\(radio.address.kind == .public ? "public" : "random")" }
                return DiscoveredRadio(url: url, label: radio.name ?? "(no name)",
                                       details: "rssi \(radio.rssi.map { "\($0) dBm" } ?? "unknown"), hci=\(spec)")
            }
        } catch {
            throw failure(error)
        }
    }

    static func validate(url: String) throws(DriverFailure) -> TransportURL {
        try TransportURL.checked(url, BLEOptions.check)
    }

    static func open(url: String, events: LinkEvents) throws(DriverFailure) -> MeshLink {
        let options = try BLEOptions(url: url, config: try loadConfig())
        do {
            let link: BLELink = try blocking {
                let host = try await HostPool.shared.acquire(options.hci)
                do {
                    let security = try LinkSecurity(options: options)
                    // A MeshCore radio always pairs: without a bond, a PIN or a terminal to ask on,
                    // say so now rather than on the first command.
                    if options.passkey == nil, !LinkSecurity.canPrompt, try security.bonds?.bond(for: options.peer) == nil {
                        throw LinkSecurityError.noPasskey(peer: options.peer)
                    }
                    let link = try await CompanionLink.open(host: host, peer: options.peer, security: security,
                                                            timeout: options.connectTimeout, withResponse: options.withResponse)
                    return BLELink(link: link, host: host, spec: options.hci, events: events)
                } catch {
                    if case HCIError.transport = error { await HostPool.shared.discard(options.hci, host) } else { await HostPool.shared.release(options.hci, host) }
                    throw error
                }
            }
            return link
        } catch {
            throw failure(error)
        }
    }

    private static func loadConfig() throws(DriverFailure) -> BLEConfig {
        do {
            return try BLEConfig.load()
        } catch {
            throw DriverFailure(MESHPORT_ERR_OTHER, error.description)
        }
    }

    /// The host stack's typed errors as ABI error kinds, their fix kept apart.
    static func failure(_ error: Error) -> DriverFailure {
        switch error {
        case let e as DriverFailure:
            return e
        case let e as HCITransportError:
            let kind: meshport_error_kind
            switch e.kind {
            case .invalidSpec: kind = MESHPORT_ERR_INVALID_URL
            case .notFound, .unsupported: kind = MESHPORT_ERR_NOT_FOUND
            case .busy: kind = MESHPORT_ERR_BUSY
            case .permissionDenied: kind = MESHPORT_ERR_PERMISSION_DENIED
            case .lost: kind = MESHPORT_ERR_LINK_LOST
            case .other: kind = MESHPORT_ERR_OTHER
            }
            return DriverFailure(kind, e.message, fix: e.fix)
        case let HCIError.transport(e):
            return failure(e)
        case HCIError.connectTimeout:
            return DriverFailure(MESHPORT_ERR_TIMEOUT, "\(error)")
        case let e as LinkSecurityError:
            return DriverFailure(MESHPORT_ERR_REFUSED, e.description)
        default:
            return DriverFailure(MESHPORT_ERR_OTHER, "\(error)")
        }
    }
}

@_cdecl("meshport_driver_entry")
public func meshportDriverEntry() -> UnsafePointer<meshport_driver_descriptor> {
    DriverExport.descriptor(for: BLEDriver.self)
}
