// TransportURL and DiscoveredRadio are part of this module's API (and of every driver's):
// whoever uses the one needs the other, so importing MeshTransport brings both.
@_exported import MeshTransportURL

/// The state of a link, as a front end shows it.
public enum LinkState: Hashable, Sendable {
    case opening
    case open
    case lost(TransportError)
    case closed
}

/// One link to one radio, carrying whole companion frames (code byte first, no header)
/// whatever the link does underneath. Drivers reach the host through the C ABI; the host
/// wraps each as a `Transport`.
public protocol Transport: AnyObject, Sendable {
    var url: TransportURL { get }
    /// Frames received, in order. Finishes when the link is lost or closed.
    var frames: AsyncStream<[UInt8]> { get }
    /// Link state changes, starting with the current state.
    var states: AsyncStream<LinkState> { get }
    func open() async throws
    /// Sends one frame. Concurrent callers are serialized.
    func send(_ frame: [UInt8]) async throws
    /// Sends one frame on the calling thread if no other send is in progress, and says how it
    /// went; nil, with nothing sent, when the caller must use `send` instead. Saves a hop to
    /// another thread per frame where a write takes microseconds.
    func sendIfIdle(_ frame: [UInt8]) -> Result<Void, any Error>?
    /// From now on hands each received frame to `handler`, in order, on the link's own thread,
    /// instead of to `frames` (which then only finishes when the link ends); call it before
    /// `open`. The handler must return quickly: the link reads nothing meanwhile. A link that
    /// cannot ignores the call and keeps `frames`, so a reader of `frames` gets every frame
    /// either way. Saves a hop to another thread per frame.
    func deliverFrames(to handler: @escaping @Sendable ([UInt8]) -> Void)
    func close() async
    /// Why the link was lost, once it was (nil while up, after a close, or when unknown).
    var failure: TransportError? { get }
    /// What a front end needs to know about this kind of link (from its driver).
    var linkFlags: LinkFlags { get }
}

extension Transport {
    public func sendIfIdle(_ frame: [UInt8]) -> Result<Void, any Error>? { nil }
    public func deliverFrames(to handler: @escaping @Sendable ([UInt8]) -> Void) {}
    public var failure: TransportError? { nil }
    public var linkFlags: LinkFlags { [] }
}
