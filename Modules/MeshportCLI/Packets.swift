import ArgumentParser
import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// `meshport packets`: the packet log, every packet the radio heard; stored ones newest
/// first, or (`--follow`) live ones as the radio hears them.
struct Packets: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "packets",
        abstract: "Show the packets the radio heard on air (stored, newest first; live with --follow).",
        discussion: """
            Each line: time, SNR, RSSI, payload type, route and hops, the packet hash, and what it is when Meshport \
            can tell (an advert of a node, a text on a channel of the radio's, an ACK, ...). --json prints one event \
            object per line, as `listen --json` and /api/events do. Without --follow the database is only read.
            """)

    @OptionGroup var options: RadioOptions
    @Flag(help: "Connect to the radio and print packets as it hears them, until interrupted or --count.") var follow = false
    @Option(help: ArgumentHelp("Only this payload type: \(PacketJSON.typeNames.map(\.name).joined(separator: ", ")).", valueName: "type"))
    var type: String?
    @Option(help: ArgumentHelp("Only packets from this node (the start of its key in hex).", valueName: "key")) var node: String?
    @Option(help: "Stored packets: at most this many.") var limit = 50
    @Option(help: "--follow: stop after this many packets.") var count: Int?

    func validate() throws {
        if let type, PacketJSON.payloadType(named: type) == nil {
            throw ValidationError("--type must be one of \(PacketJSON.typeNames.map(\.name).joined(separator: ", ")), not \"\(type)\"")
        }
        if let node, node.count < 2 || !node.allSatisfy(\.isHexDigit) {
            throw ValidationError("--node must be the start of a key in hex (at least 2 digits), not \"\(node)\"")
        }
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more") }
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
    }

    private var payloadType: AirPacket.PayloadType? { type.flatMap(PacketJSON.payloadType(named:)) }

    func run() async throws {
        try await reportingRadioErrors {
            if follow { try await followLive() } else { try showStored() }
        }
    }

    private func showStored() throws {
        let store = try StoreFile.open(options.databasePath, readOnly: true)
        let radio = try OfflineRadio.pick(store).id
        let nodeKey = try node.map { try Self.resolveNode($0, store: store, radio: radio) }
        let page = try store.reader.packets(radio, PacketFilter(payloadType: payloadType, node: nodeKey), limit: limit)
        if options.json {
            for packet in page.packets { Output.emit(try EventJSON(.packet(PacketJSON(packet))).line()) }
        } else if page.packets.isEmpty {
            print("no packets heard\(type.map { " of type \($0)" } ?? "")")
        } else {
            let line = PacketLine(name: { key in Self.contactName(store, radio, key) })
            for packet in page.packets { print(line.text(packet)) }
        }
    }

    private func followLive() async throws {
        let (json, limit, type, node) = (options.json, count ?? .max, payloadType, node?.lowercased())
        try await RadioConnection.watching(options, keepAlive: true) { radio, events in
            let (store, id) = (radio.store, radio.context.radio)
            let line = PacketLine(name: { key in Self.contactName(store, id, key) })
            try await Interruptible.run {
                var shown = 0
                for await case let .packetHeard(packet) in events {
                    if let type, packet.packet.payloadType != type { continue }
                    if let node, !(packet.node?.hex.hasPrefix(node) ?? false) { continue }
                    Output.emit(json ? try EventJSON(.packet(PacketJSON(packet))).line() : line.text(packet))
                    shown += 1
                    if shown >= limit { return }
                }
            }
        }
    }

    /// The one stored contact whose key starts with `prefix`.
    static func resolveNode(_ prefix: String, store: MeshStore, radio: RadioID) throws -> PublicKey {
        let matches = try store.reader.contacts(radio).filter { $0.publicKey.hex.hasPrefix(prefix.lowercased()) }
        guard matches.count == 1 else {
            throw CLIError(matches.isEmpty ? "no contact's key starts with \(prefix)" : "\(matches.count) contacts' keys start with \(prefix); give more digits")
        }
        return matches[0].publicKey
    }

    static func contactName(_ store: MeshStore, _ radio: RadioID, _ key: PublicKey) -> String? {
        do { return try store.reader.contact(radio, key: key)?.name } catch {
            Output.error("cannot read contact \(key.prefix(4).hex): \(error)")
            return nil
        }
    }
}
