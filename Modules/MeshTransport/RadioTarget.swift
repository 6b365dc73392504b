import Foundation
import MeshDriverABI

/// A radio named by a URL, with the driver that opens it, the URL checked by that driver.
/// `RadioTarget.resolve` is the one way from URLs a person gave to links: the radio commands,
/// `serve`, `conformance` and `use` all go through it.
public struct RadioTarget: Sendable {
    public let url: TransportURL
    public let driver: LoadedDriver

    /// A fresh, unopened link to the radio (a link once closed or lost is not reopened).
    public func transport() -> PluginTransport { PluginTransport(url: url, driver: driver) }

    /// Parses each URL, loads the drivers their schemes need (only those), and has each driver
    /// check its URL. The first bad URL or missing driver is the error.
    public static func resolve(_ texts: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(TransportError) -> [RadioTarget] {
        var urls: [TransportURL] = []
        for text in texts { urls.append(try TransportURL.parsed(text)) }
        let loader = PluginLoader.load(for: Set(urls.map(\.scheme)), environment: environment)
        var targets: [RadioTarget] = []
        for url in urls { targets.append(try loader.target(url)) }
        return targets
    }

    /// `resolve` for one URL.
    public static func resolve(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(TransportError) -> RadioTarget {
        try resolve([text], environment: environment)[0]
    }
}

extension PluginLoader {
    /// The loaded driver for `url`'s scheme, once it accepted the URL.
    public func target(_ url: TransportURL) throws(TransportError) -> RadioTarget {
        guard let driver = driver(for: url.scheme) else {
            throw .noDriver(scheme: url.scheme, url: url.text, loaded: loaded.flatMap(\.schemes))
        }
        try driver.validate(url)
        return RadioTarget(url: url, driver: driver)
    }
}

extension LoadedDriver {
    /// Has the driver check `url` without opening anything (its `validate` entry; a driver
    /// without one finds a bad URL only when it opens).
    public func validate(_ url: TransportURL) throws(TransportError) {
        guard let validate = descriptor.validate else { return }
        var error = meshport_error()
        guard url.text.withCString({ validate($0, &error) }) == 0 else { throw TransportError(error, url: url.text) }
    }
}

extension TransportURL {
    /// Parses `text`, failing with the transport's own error.
    public static func parsed(_ text: String) throws(TransportError) -> TransportURL {
        do {
            return try TransportURL(text)
        } catch {
            throw .invalidURL(error.url, part: error.part, reason: error.reason)
        }
    }
}
