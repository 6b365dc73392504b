import MeshDriverABI
import MeshTransport

/// What `discover` returns; the host sees the same value after the C boundary.
public typealias DiscoveredRadio = MeshTransport.DiscoveredRadio

/// A driver-side failure; becomes the C `meshport_error` at the boundary.
public struct DriverFailure: Error, Sendable, CustomStringConvertible {
    public var kind: meshport_error_kind
    /// What happened and where.
    public var message: String
    /// What the user can do about it, when the driver knows.
    public var fix: String?

    public init(_ kind: meshport_error_kind, _ message: String, fix: String? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
    }

    public var description: String { fix.map { "\(message); \($0)" } ?? message }

    func write(to error: UnsafeMutablePointer<meshport_error>?) {
        message.withCString { meshport_error_set(error, kind, $0) }
        if let fix { fix.withCString { meshport_error_set_fix(error, $0) } }
    }
}

/// Where a link delivers what it receives. Calls must follow the ABI's rules: never
/// concurrently, never after `close` returned, `linkLost` at most once.
public struct LinkEvents: @unchecked Sendable {
    let callbacks: meshport_callbacks

    public func received(_ bytes: UnsafeBufferPointer<UInt8>) {
        callbacks.received?(callbacks.context, bytes.baseAddress, bytes.count)
    }

    public func linkLost(_ failure: DriverFailure) {
        var e = meshport_error()
        failure.write(to: &e)
        callbacks.link_lost?(callbacks.context, &e)
    }
}

/// One open link.
public protocol MeshLink: AnyObject {
    func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(DriverFailure)
    func close()
}

/// What a driver author implements; `DriverExport.descriptor(for:)` turns it into the C descriptor.
public protocol MeshDriver {
    static var name: String { get }
    static var version: String { get }
    static var schemes: [String] { get }
    static var linkKind: meshport_link_kind { get }
    static var maxFrameSize: Int { get }
    static func discover() throws(DriverFailure) -> [DiscoveredRadio]
    static func open(url: String, events: LinkEvents) throws(DriverFailure) -> MeshLink
}

extension TransportURL {
    /// Parses and validates a URL handed to a driver's `open`; failures become INVALID_URL.
    public static func forDriver(_ text: String) throws(DriverFailure) -> TransportURL {
        do {
            let url = try TransportURL(text)
            try url.validate()
            return url
        } catch {
            throw DriverFailure(MESHPORT_ERR_INVALID_URL, "\(error)")
        }
    }
}
