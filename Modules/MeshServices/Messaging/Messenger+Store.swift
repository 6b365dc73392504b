import MeshCodec
import MeshStore

/// The store's side of sending: each change written, then emitted.
extension Messenger {
    func save(_ message: OutgoingMessage, step: String) async throws(MessagingError) -> StoredMessage {
        do throws(StoreError) {
            let saved = try await context.store.writer.saveOutgoing(context.radio, message)
            emit(saved)
            return saved
        } catch {
            throw .store(step: step, error)
        }
    }

    func update(_ id: Int64, _ status: MessageStatus, ackCode: AckCode? = nil, attempt: Int? = nil, roundTripMs: UInt32? = nil,
                step: String) async throws(MessagingError) -> StoredMessage {
        do throws(StoreError) {
            let message = try await context.store.writer.updateMessage(context.radio, id: id, status: status, ackCode: ackCode, attempt: attempt,
                                                                       roundTripMs: roundTripMs.map(Int.init))
            emit(message)
            return message
        } catch {
            throw .store(step: step, error)
        }
    }

    /// Marks the message failed with `error` as its reason and returns `error`. When even
    /// that write fails, the original error still goes to the caller and the lost write is
    /// reported as a problem.
    func fail(_ id: Int64, _ failure: MessagingError) async -> MessagingError {
        settle(id, failed: true)
        do throws(StoreError) {
            emit(try await context.store.writer.updateMessage(context.radio, id: id, status: .failed, failureReason: failure.description))
        } catch {
            problem("message \(id) could not be marked failed (\(error)) after: \(failure.description)")
        }
        return failure
    }

    /// The stored message as it is now, for a report; `fallback` when it cannot be read.
    func current(_ id: Int64, fallback: StoredMessage) -> StoredMessage {
        do throws(StoreError) {
            return try context.store.reader.message(context.radio, id: id) ?? fallback
        } catch {
            problem("reading message \(id) back failed: \(error)")
            return fallback
        }
    }

    /// An echo of one of our packets was heard.
    func recordHeardRepeat(_ id: Int64) async {
        do throws(StoreError) {
            try await context.store.writer.recordHeardRepeat(context.radio, messageId: id)
            if let message = try context.store.reader.message(context.radio, id: id) { emit(message) }
        } catch {
            problem("a heard repeat of message \(id) was not recorded: \(error)")
        }
    }

    /// A late ACK for a message already marked failed: it was delivered after all.
    func deliverLate(_ id: Int64, _ confirmation: Confirmation) async {
        do throws(StoreError) {
            emit(try await context.store.writer.updateMessage(context.radio, id: id, status: .delivered, ackCode: confirmation.code,
                                                              roundTripMs: Int(confirmation.roundTripMs)))
        } catch {
            problem("the late ACK \(confirmation.code) of message \(id) was not recorded: \(error)")
        }
    }
}
