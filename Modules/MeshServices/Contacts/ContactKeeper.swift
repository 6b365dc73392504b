import Foundation
import MeshCodec
import MeshStore

/// Keeps what the radio says of its contacts in the store and announces it: the one place
/// for initialization, `ContactsService.sync` and contact pushes alike.
struct ContactKeeper: Sendable {
    let store: MeshStore
    let radio: RadioID
    let events: EventHub<ClientEvent>
    let now: @Sendable () -> Date

    /// A sync's contacts: a full one (`since` nil) that brought every contact announced is the
    /// whole list, so stored contacts missing from it were removed meanwhile; an incremental
    /// or short one only updates. The watermark moves once they are kept.
    func keepSync(_ contacts: [Contact], since: UInt32?, watermark: UInt32, announced: Int) async throws {
        let writer = store.writer
        if since == nil, contacts.count >= announced {
            let (_, removed) = try await writer.replaceContacts(radio, contacts)
            for key in removed { events.emit(.contactChanged(.removed(key))) }
        } else {
            try await writer.saveContacts(radio, contacts)
        }
        try await writer.setContactsLastmod(radio, watermark)
        try await announce(contacts)
    }

    /// Contacts read back one by one (an advert, a path update, an edit).
    @discardableResult
    func keep(_ contacts: [Contact]) async throws -> [StoredContact] {
        let saved = try await store.writer.saveContacts(radio, contacts)
        try await announce(contacts)
        return saved
    }

    /// A contact the radio no longer has (removed by us, by another app through a companion
    /// port, or by the radio itself): kept in the store with its messages, marked removed.
    func keepRemoved(_ key: PublicKey) async throws {
        try await store.writer.markContactsRemoved(radio, [key])
        events.emit(.contactChanged(.removed(key)))
    }

    /// Each changed contact is announced; an advertised position goes to the store through its
    /// coalescer (only changed contacts arrive here, so each is a new report).
    private func announce(_ contacts: [Contact]) async throws {
        for contact in contacts { events.emit(.contactChanged(.updated(contact))) }
        let at = now()
        let samples = contacts.filter { !$0.position.isZero }.map {
            PositionSample(node: $0.publicKey, coordinates: $0.position, source: .advert, recordedAt: at)
        }
        if !samples.isEmpty { await store.record(radio, SampleBatch(positions: samples)) }
    }
}
