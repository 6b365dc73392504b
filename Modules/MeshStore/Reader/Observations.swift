import Foundation
import GRDB
import MeshCodec

/// A stream of fresh values each time the rows behind them change (GRDB ValueObservation),
/// starting with the current value. Errors arrive as `StoreError`; the stream then ends.
public struct StoreObservation<Element: Sendable & Equatable>: AsyncSequence, Sendable {
    let base: AsyncValueObservation<Element>
    let what: String

    public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), what: what) }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncValueObservation<Element>.Iterator
        let what: String

        public mutating func next() async throws -> Element? {
            do {
                return try await base.next()
            } catch let error as StoreError {
                throw error
            } catch is CancellationError {
                return nil
            } catch {
                throw StoreError.read(what: what, reason: StoreError.reason(error))
            }
        }
    }
}

extension StoreReader {
    func observe<T: Sendable & Equatable>(_ what: String, _ fetch: @escaping @Sendable (Database) throws -> T) -> StoreObservation<T> {
        // Values are computed on a reader connection, concurrently with writes (WAL).
        StoreObservation(base: ValueObservation.tracking(fetch).removeDuplicates().values(in: database.writer), what: what)
    }

    /// The newest page of a conversation, again after every change to it.
    public func observeTimeline(_ radio: RadioID, _ conversation: Conversation, limit: Int = 50) -> StoreObservation<TimelinePage> {
        observe("timeline of \(conversation)") { db in
            try TimelineQueries.page(db, radio: radio, conversation: conversation, before: nil, limit: limit)
        }
    }

    public func observeUnreadCounts(_ radio: RadioID) -> StoreObservation<UnreadCounts> {
        observe("unread counts of radio \(radio)") { db in try ConversationQueries.unread(db, radio: radio) }
    }

    /// The contact list (favourites first, then by name), first `limit` rows.
    public func observeContacts(_ radio: RadioID, limit: Int = .max) -> StoreObservation<[StoredContact]> {
        observe("contacts of radio \(radio)") { db in try ContactQueries.list(db, radio: radio, limit: limit, offset: 0) }
    }
}
