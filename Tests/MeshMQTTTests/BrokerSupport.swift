import Foundation
import MeshMQTT
import MeshportTestSupport

/// A client for one of the test broker's listeners, retrying quickly.
func makeClient(_ url: String, id: String = "test-\(UUID().uuidString.prefix(8))", will: MQTTMessage? = nil,
                capacity: Int = 1000, folder: URL? = nil) throws -> MQTTClient {
    let options = MQTTClientOptions(clientID: id, will: will, backlogCapacity: capacity, backlogFolder: folder,
                                    retryMin: .milliseconds(200), retryMax: .seconds(1), connectTimeout: .seconds(5))
    return try MQTTClient(broker: try MQTTBrokerURL(parsing: url), options: options)
}

/// Waits for the first state `match` accepts; nil when none came within `seconds`.
func waitForState(_ client: MQTTClient, within seconds: Double = 20,
                  _ match: @escaping @Sendable (MQTTConnectionState) -> Bool) async -> MQTTConnectionState? {
    let states = await client.stateUpdates()
    return await withTaskGroup(of: MQTTConnectionState?.self) { group in
        group.addTask {
            for await state in states where match(state) { return state }
            return nil
        }
        group.addTask {
            do { try await Task.sleep(for: .seconds(seconds)) } catch { return nil }   // cancelled: a state came first
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// The next message on `client.messages`; nil when none came within `seconds`.
func nextMessage(_ client: MQTTClient, within seconds: Double = 20) async -> MQTTMessage? {
    await withTaskGroup(of: MQTTMessage?.self) { group in
        group.addTask {
            for await message in client.messages { return message }
            return nil
        }
        group.addTask {
            do { try await Task.sleep(for: .seconds(seconds)) } catch { return nil }   // cancelled: a message came first
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

func isConnected(_ state: MQTTConnectionState) -> Bool { state == .connected }

/// The payloads of `lines` ("topic payload") on `topic`, as numbers.
func numbers(_ lines: [String], on topic: String) -> [Int] {
    lines.compactMap { line in
        guard line.hasPrefix(topic + " ") else { return nil }
        return Int(line.dropFirst(topic.count + 1))
    }
}

/// Whether `received` holds 0..<count in order, each at least once, a repeat only of a number
/// already seen (QoS 1 resends from the oldest unacknowledged message).
func inOrderAtLeastOnce(_ received: [Int], count: Int) -> Bool {
    var next = 0
    for number in received {
        if number == next { next += 1 } else if number > next { return false }
    }
    return next == count
}

/// How many messages a backlog folder holds for the next process, read here on its own from
/// the format (BacklogSegments.swift): the records of the segment files (u32 length, u32 CRC-32,
/// then the body, starting with its u64 sequence) at or after the cursor file's sequence.
func pendingMessages(in folder: TempDir) throws -> Int {
    let cursorBytes = FileManager.default.contents(atPath: folder.url.appendingPathComponent("cursor").path).map { [UInt8]($0) } ?? []
    let cursor = cursorBytes.count == 12 ? littleEndian(cursorBytes[0..<8]) : 0
    var count = 0
    for name in try segmentFiles(in: folder) {
        let bytes = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent(name)))
        var offset = 0
        while offset + 16 <= bytes.count {
            if littleEndian(bytes[offset + 8..<offset + 16]) >= cursor { count += 1 }
            offset += 8 + Int(littleEndian(bytes[offset..<offset + 4]))
        }
    }
    return count
}

/// The segment files of a backlog folder, oldest first.
func segmentFiles(in folder: TempDir) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".seg") }.sorted()
}

private func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }

/// Waits (at most `seconds`) until the broker has granted `filter` to `client`: a message
/// published before then has nobody to go to on a subscription only just asked for.
func waitForGrant(_ client: MQTTClient, _ filter: String, within seconds: Double = 20) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if await client.grantedFilters.contains(filter) { return true }
        do { try await Task.sleep(for: .milliseconds(20)) } catch { return false }
    }
    return false
}
