import MeshCodec
import MeshStore

extension Messenger {
    /// Sends `text` to channel slot `index` (SEND_CHANNEL_TXT_MSG, answered OK; channel
    /// messages are never acknowledged). "<our name>: <text>" must fit 160 bytes. The
    /// message is saved `pending`, then `sent`; each echo of our packet heard within the
    /// echo window (decrypted with the channel's secret, same timestamp and line) is a
    /// heard repeat. A failed step throws, leaving the message `failed` with the reason.
    public func sendChannel(_ text: String, channel index: UInt8) async throws(MessagingError) -> StoredMessage {
        let line = try TextLimits.checkChannel(text, channel: index, senderName: context.selfInfo.name)
        let secret = try await channelSecret(index)
        let timestamp = nextTimestamp()
        let pending = try await save(OutgoingMessage(conversation: .channel(index), text: text, senderTimestamp: timestamp),
                                     step: "saving the message to channel \(index)")
        startTracking(pending.id, matcher: .channel(secret: secret, timestamp: timestamp, line: line))
        do {
            try await session.expectOK(.sendChannelTextMessage(SendChannelTextMessage(channelIndex: index, timestamp: timestamp, text: text)))
        } catch {
            throw await fail(pending.id, .command("the message to channel \(index)", error))
        }
        settle(pending.id, failed: false)
        return try await update(pending.id, .sent, attempt: 1, step: "recording the message to channel \(index) as sent")
    }

    /// The slot's secret, for recognising our echoes: from the store, else from the radio
    /// (GET_CHANNEL). A free slot is refused: the radio would send with the all-zero key.
    func channelSecret(_ index: UInt8) async throws(MessagingError) -> ChannelSecret {
        let stored: [StoredChannel]
        do throws(StoreError) {
            stored = try context.store.reader.channels(context.radio)
        } catch {
            throw .store(step: "reading channel slot \(index)", error)
        }
        if let known = stored.first(where: { $0.index == index }), !known.info.secret.isEmpty { return known.info.secret }
        let info: ChannelInfo
        do {
            info = try await session.expect(.getChannel(index)) { if case let .channelInfo(i) = $0 { i } else { nil } }
        } catch {
            throw .command("reading channel slot \(index) before sending to it", error)
        }
        guard !info.secret.isEmpty else { throw .emptyChannel(channel: index, url: radioURL) }
        return info.secret
    }
}
