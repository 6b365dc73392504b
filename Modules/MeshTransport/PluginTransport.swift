import Dispatch
import MeshCodec
import MeshDriverABI
import Synchronization

/// A loaded driver's link wrapped as a `Transport`. Stream links go through MeshCodec's
/// framer here, so no driver implements framing; packet links pass frames through.
/// Open and close run on one serial queue per link. A send runs on the caller's thread
/// when no other send is in progress (a healthy link's write takes microseconds, and each
/// thread hop costs about as much); otherwise it waits its turn on the queue. One lock
/// keeps the driver's send calls one at a time, as the ABI requires.
public final class PluginTransport: Transport, @unchecked Sendable {
    public let url: TransportURL
    public let driver: LoadedDriver
    public let frames: AsyncStream<[UInt8]>
    public let states: AsyncStream<LinkState>

    private let frameSink: AsyncStream<[UInt8]>.Continuation
    private let stateSink: AsyncStream<LinkState>.Continuation
    private let queue: DispatchQueue
    private let state: Mutex<Inner>
    /// Held for each driver send call (never with `state` held: the reader thread needs it).
    private let sending = Mutex(())
    /// Handed to the driver as the callbacks' context; released in close().
    private var context: Unmanaged<CallbackBox>?

    /// The driver's handle; only used under the lock or on the link's queue.
    struct Handle: @unchecked Sendable { let raw: UnsafeMutableRawPointer }

    struct Inner {
        var handle: Handle?
        var link = LinkState.closed
        var decoder: FrameDecoder
        /// Set by `deliverFrames`: takes the frames `frames` would otherwise carry.
        var handler: (@Sendable ([UInt8]) -> Void)?
    }

    public init(url: TransportURL, driver: LoadedDriver) {
        self.url = url
        self.driver = driver
        (frames, frameSink) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        (states, stateSink) = AsyncStream.makeStream(of: LinkState.self, bufferingPolicy: .unbounded)
        queue = DispatchQueue(label: "meshport.link.\(url.scheme)")
        state = Mutex(Inner(decoder: FrameDecoder(direction: .fromRadio, maxFrameLength: max(1, driver.maxFrameSize))))
    }

    public var failure: TransportError? {
        state.withLock { inner in
            if case let .lost(e) = inner.link { return e }
            return nil
        }
    }

    public var linkFlags: LinkFlags { driver.flags }

    public func open() async throws {
        try await onQueue { [self] in
            guard state.withLock({ $0.handle == nil }) else { return }
            setState(.opening)
            let box = CallbackBox(self)
            let ctx = Unmanaged.passRetained(box)
            var callbacks = meshport_callbacks(context: ctx.toOpaque(), received: pluginReceived, link_lost: pluginLinkLost)
            var error = meshport_error()
            let handle = url.text.withCString { driver.descriptor.open($0, &callbacks, &error) }
            guard let handle else {
                ctx.release()
                let failure = TransportError(error, url: url.text)
                setState(.lost(failure))
                throw failure
            }
            context = ctx
            let h = Handle(raw: handle)
            state.withLock {
                $0.handle = h
                $0.decoder.reset()
            }
            setState(.open)
        }
    }

    public func send(_ frame: [UInt8]) async throws {
        let bytes = try wireBytes(frame)
        if let inline = sendInline(bytes) { return try inline.get() }
        try await onQueue { [self] in try sending.withLock { _ throws(TransportError) in try sendNow(bytes) } }
    }

    public func sendIfIdle(_ frame: [UInt8]) -> Result<Void, any Error>? {
        let bytes: [UInt8]
        do { bytes = try wireBytes(frame) } catch { return .failure(error) }
        return sendInline(bytes)?.mapError { $0 as any Error }
    }

    /// Writes on the calling thread when no other send holds the link; nil when one does.
    private func sendInline(_ bytes: [UInt8]) -> Result<Void, TransportError>? {
        sending.withLockIfAvailable { _ in Result { () throws(TransportError) in try sendNow(bytes) } }
    }

    /// The bytes the driver is given for one frame: framed on a stream link.
    private func wireBytes(_ frame: [UInt8]) throws -> [UInt8] {
        guard driver.linkKind == .stream else {
            guard frame.count <= driver.maxFrameSize else {
                throw TransportError.driver(url.text, reason: "frame of \(frame.count) bytes exceeds the link's maximum of \(driver.maxFrameSize)")
            }
            return frame
        }
        return try FrameEncoder.encode(frame, direction: .toRadio, maxFrameLength: driver.maxFrameSize)
    }

    /// One driver send call; the caller holds `sending`.
    private func sendNow(_ bytes: [UInt8]) throws(TransportError) {
        // After a loss the handle stays until close(), but nothing more goes out on it.
        let (handle, failure) = state.withLock { inner -> (Handle?, TransportError?) in
            switch inner.link {
            case .open: return (inner.handle, nil)
            case let .lost(e): return (nil, e)
            case .opening, .closed: return (nil, .closed(url.text))
            }
        }
        guard let handle else { throw failure ?? .closed(url.text) }
        var error = meshport_error()
        let rc = bytes.withUnsafeBufferPointer { driver.descriptor.send(handle.raw, $0.baseAddress, $0.count, &error) }
        if rc != 0 { throw TransportError(error, url: url.text) }
    }

    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                closeOnQueue()
                done.resume()
            }
        }
    }

    deinit {
        frameSink.finish()
        stateSink.finish()
    }

    private func closeOnQueue() {
        // Under `sending`: a send on another thread finishes first, and none starts on this handle.
        let handle = sending.withLock { _ -> Handle? in
            let handle = state.withLock { inner -> Handle? in
                defer { inner.handle = nil }
                return inner.handle
            }
            if let handle { driver.descriptor.close(handle.raw) }
            return handle
        }
        context?.release()
        context = nil
        if handle != nil || state.withLock({ if case .lost = $0.link { return false } else { return true } }) {
            setState(.closed)
        }
        frameSink.finish()
        stateSink.finish()
    }

    public func deliverFrames(to handler: @escaping @Sendable ([UInt8]) -> Void) {
        state.withLock { $0.handler = handler }
    }

    fileprivate func received(_ bytes: UnsafeBufferPointer<UInt8>) {
        let chunk = Array(bytes)
        let (complete, handler) = state.withLock { inner -> ([[UInt8]], (@Sendable ([UInt8]) -> Void)?) in
            if driver.linkKind == .packet { return ([chunk], inner.handler) }
            var complete: [[UInt8]] = []
            // A rejected header (oversize or zero length) costs only its bytes: the framer
            // looks for the next frame start, as the firmware's own reader does.
            inner.decoder.feed(chunk) { event in
                if case let .frame(f) = event { complete.append(f) }
            }
            return (complete, inner.handler)
        }
        // The driver never calls concurrently for one link, so frames keep their order either way.
        for f in complete {
            if let handler { handler(f) } else { frameSink.yield(f) }
        }
    }

    fileprivate func linkLost(_ error: TransportError) {
        setState(.lost(error))
        frameSink.finish()
    }

    private func setState(_ s: LinkState) {
        state.withLock { $0.link = s }
        stateSink.yield(s)
    }

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { cont in
            queue.async {
                do { cont.resume(returning: try work()) } catch { cont.resume(throwing: error) }
            }
        }
    }
}

/// Weak hop from the C context pointer back to the transport.
private final class CallbackBox: @unchecked Sendable {
    weak var transport: PluginTransport?
    init(_ t: PluginTransport) { transport = t }
}

private func pluginReceived(_ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<UInt8>?, _ length: Int) {
    guard let context, let bytes else { return }
    Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue().transport?.received(UnsafeBufferPointer(start: bytes, count: length))
}

private func pluginLinkLost(_ context: UnsafeMutableRawPointer?, _ error: UnsafePointer<meshport_error>?) {
    guard let context else { return }
    let box = Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue()
    guard let t = box.transport else { return }
    t.linkLost(error.map { TransportError(meshport_error(driverOwned: $0, abiMinor: t.driver.abiMinor), url: t.url.text) }
        ?? .linkLost(t.url.text, reason: "driver reported no reason"))
}

extension meshport_error {
    /// A copy of an error the driver allocated: one built for ABI 1.0 ends before `fix`, so
    /// only that much is read and `fix` stays empty.
    init(driverOwned error: UnsafePointer<meshport_error>, abiMinor: Int) {
        self.init()
        let size = abiMinor >= 1 ? MemoryLayout<meshport_error>.size : MemoryLayout<meshport_error>.offset(of: \.fix) ?? 0
        withUnsafeMutableBytes(of: &self) { $0.copyMemory(from: UnsafeRawBufferPointer(start: error, count: size)) }
    }

    /// The driver's message (a NUL-terminated C string in a fixed buffer).
    public var text: String { Self.string(message) }

    /// The driver's fix, nil when it gave none.
    public var fixText: String? {
        let fix = Self.string(fix)
        return fix.isEmpty ? nil : fix
    }

    private static func string<Buffer>(_ buffer: Buffer) -> String {
        withUnsafeBytes(of: buffer) { raw in String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }
}

extension TransportError {
    /// Maps a driver's C error to the typed error.
    init(_ e: meshport_error, url: String) {
        // The permission error keeps its fix apart (its description says "Fix:"); the other
        // kinds say theirs at the end of the reason.
        let (reason, fix) = (e.text, e.fixText)
        let message = fix.map { "\(reason); \($0)" } ?? reason
        switch e.kind {
        case MESHPORT_ERR_LINK_LOST: self = .linkLost(url, reason: message)
        case MESHPORT_ERR_TIMEOUT: self = .timeout(url, operation: message, seconds: 0)
        case MESHPORT_ERR_REFUSED: self = .refused(url, reason: message)
        case MESHPORT_ERR_NOT_FOUND: self = .notFound(url, reason: message)
        case MESHPORT_ERR_PERMISSION_DENIED: self = .permissionDenied(url, reason: reason, fix: fix ?? "check the device's permissions")
        case MESHPORT_ERR_BUSY: self = .busy(url, reason: message)
        case MESHPORT_ERR_INVALID_URL: self = .invalidURL(url, part: url, reason: message)
        default: self = .driver(url, reason: message.isEmpty ? "unknown driver error" : message)
        }
    }
}
