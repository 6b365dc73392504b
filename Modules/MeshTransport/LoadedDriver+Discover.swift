import Foundation
import MeshDriverABI

extension LoadedDriver {
    /// Asks the driver which radios it can reach now (its `discover` entry; a driver
    /// without one finds nothing).
    public func discover() throws(TransportError) -> [DiscoveredRadio] {
        guard let discover = descriptor.discover else { return [] }
        let found = FoundList()
        var error = meshport_error()
        let context = Unmanaged.passRetained(found)
        defer { context.release() }
        let rc = discover(pluginFound, context.toOpaque(), &error)
        guard rc == 0 else { throw TransportError(error, url: "\(schemes.first ?? name)://") }
        return found.lock.withLock { found.radios }
    }
}

/// Collects the `found` callbacks of one discover call (the ABI allows any driver thread,
/// before discover returns).
private final class FoundList {
    let lock = NSLock()
    var radios: [DiscoveredRadio] = []
}

private func pluginFound(_ context: UnsafeMutableRawPointer?, _ url: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?,
                         _ details: UnsafePointer<CChar>?) {
    guard let context, let url else { return }
    let list = Unmanaged<FoundList>.fromOpaque(context).takeUnretainedValue()
    let radio = DiscoveredRadio(url: String(cString: url), label: label.map { String(cString: $0) } ?? "",
                                details: details.map { String(cString: $0) } ?? "")
    list.lock.withLock { list.radios.append(radio) }
}
