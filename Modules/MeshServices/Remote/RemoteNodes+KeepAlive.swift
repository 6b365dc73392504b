import MeshCodec

extension RemoteNodes {
    /// Binary request type 0x02 (Docs/protocol.md §7.5): tells a server the client is still there.
    static let keepAliveRequest: [UInt8] = [0x02]

    /// Starts (or restarts) the keep-alive of a logged-in node: every `keepAliveInterval`, a
    /// keep-alive when the node's route is direct. A flood keep-alive would cost the whole
    /// mesh airtime, so a node without a path is skipped until it has one again.
    func startKeepAlive(_ node: PublicKey) {
        keepAlives[node]?.cancel()
        let interval = keepAliveInterval
        keepAlives[node] = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return   // logged out, or the service is gone
                }
                guard let self else { return }
                await self.keepAlive(node)
            }
        }
    }

    func stopKeepAlive(_ node: PublicKey) {
        keepAlives.removeValue(forKey: node)?.cancel()
    }

    /// Stops every keep-alive (the radio is being disconnected).
    public func stopAllKeepAlives() {
        for task in keepAlives.values { task.cancel() }
        keepAlives = [:]
    }

    /// One keep-alive. It goes through the gate like any request (sending it drops the radio's
    /// matcher for a request in flight) and waits for SENT only: no reply is awaited.
    private func keepAlive(_ node: PublicKey) async {
        let session = context.session
        guard await session.state == .ready else { return }
        do {
            let contact = try await contact(node)
            guard !contact.outPath.length.isNone else { return }
            try await gate.run {
                _ = try await session.expect(.sendBinaryRequest(node, data: Self.keepAliveRequest)) { if case .sent = $0 { true } else { nil } }
            }
        } catch {
            context.events.emit(.problem("keep-alive to \(node.prefix(6).hex) failed: \(error)"))
        }
    }
}
