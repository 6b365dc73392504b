// A driver parses its URLs and reports what it finds with these types, so importing the kit
// brings them. The kit depends on nothing of the host but the C ABI and this URL module.
@_exported import MeshTransportURL
import MeshDriverABI

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

    /// A bad URL: INVALID_URL, the message quoting the bad part (the host quotes the URL).
    public init(_ invalid: TransportURLError) {
        self.init(MESHPORT_ERR_INVALID_URL, invalid.detail)
    }

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
    /// What a front end needs to know about the links (default: none).
    static var flags: [meshport_link_flag] { get }
    static func discover() throws(DriverFailure) -> [DiscoveredRadio]
    /// Parses and checks a URL as `open` needs it, touching no device; the host asks before it
    /// opens, and `open` should start with it. Default: parsing only.
    static func validate(url: String) throws(DriverFailure) -> TransportURL
    static func open(url: String, events: LinkEvents) throws(DriverFailure) -> MeshLink
}

extension MeshDriver {
    public static var flags: [meshport_link_flag] { [] }

    public static func validate(url: String) throws(DriverFailure) -> TransportURL {
        try TransportURL.checked(url) { _ in }
    }
}

extension TransportURL {
    /// Parses `text` and runs a driver's `rules` on it; either's error becomes INVALID_URL.
    public static func checked(_ text: String, _ rules: (TransportURL) throws(TransportURLError) -> Void) throws(DriverFailure) -> TransportURL {
        do throws(TransportURLError) {
            let url = try TransportURL(text)
            try rules(url)
            return url
        } catch {
            throw DriverFailure(error)
        }
    }
}
