import MeshTransport

/// A test link that changes only how frames are sent: everything else is its inner link's.
protocol WrappingLink: Transport {
    associatedtype Inner: Transport
    var inner: Inner { get }
}

extension WrappingLink {
    var url: TransportURL { inner.url }
    var frames: AsyncStream<[UInt8]> { inner.frames }
    var states: AsyncStream<LinkState> { inner.states }
    func open() async throws { try await inner.open() }
    func close() async { await inner.close() }
}
