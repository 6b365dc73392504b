import MeshCodec
@testable import MeshSim
import Testing

/// A scenario's backlog: the offline queue holds it at start, in the order and mix asked for.
@Suite(.timeLimit(.minutes(1))) struct BacklogTests {
    private func scenario(contacts: Int = 5, queue: Int = 40, _ backlog: BacklogSpec) -> Scenario {
        var radio = RadioSpec()
        radio.offlineQueueSize = queue
        var s = Scenario(radio: radio, generate: [GenerateSpec(count: contacts, namePrefix: "Q", maxHops: 1)])
        s.backlog = backlog
        return s
    }

    @Test func theQueueHoldsTheBacklogAtStart() throws {
        var s = try scenario(BacklogSpec(dms: 6, channel: 3, text: "hello")).state(seed: 2)
        #expect(s.offlineQueue.count == 9)
        var kinds: [String] = [], texts: [String] = []
        while let m = s.offlineQueue.pop() {
            switch m {
            case let .contactMessage(dm): kinds.append("dm"); texts.append(dm.text)
            case let .channelMessage(ch): kinds.append("ch"); texts.append(ch.text)
            default: kinds.append("other")
            }
        }
        #expect(kinds == ["dm", "ch", "dm", "ch", "dm", "ch", "dm", "dm", "dm"])
        #expect(texts.first == "hello 1" && texts.last == "hello 9")
        #expect(texts[1].hasSuffix(": hello 2"), "channel lines carry the sender's name")
        #expect(SimHandler.advance(&s, to: .seconds(60)).isEmpty, "nothing left to happen after the start")
    }

    @Test func sameFileSameQueue() throws {
        let a = try scenario(BacklogSpec(dms: 10, channel: 10)).state(seed: 4)
        let b = try scenario(BacklogSpec(dms: 10, channel: 10)).state(seed: 4)
        #expect(a.offlineQueue.messages == b.offlineQueue.messages)
    }

    @Test func aThousandFitALargeQueue() throws {
        let s = try scenario(contacts: 50, queue: 1000, BacklogSpec(dms: 500, channel: 500)).state()
        #expect(s.offlineQueue.count == 1000 && s.offlineQueue.dropped == 0)
    }

    @Test(arguments: [
        (BacklogSpec(dms: 30, channel: 11), 5, "backlog: 41 messages do not fit the offline queue (radio.offlineQueueSize is 40)"),
        (BacklogSpec(dms: -1), 5, "backlog.dms: -1 is outside 0...10000"),
        (BacklogSpec(channel: 2), 0, "backlog: no chat contact to send the messages"),
        // A fuzz finding (Tools/Fuzz/corpus/scenario/regression-crash-*): lines too long for one
        // packet were queued, and their air log could not be encoded.
        (BacklogSpec(dms: 10, text: String(repeating: "q", count: 158)), 5, "backlog.text: 161 bytes; a DM's text is at most 160 bytes in UTF-8"),
        (BacklogSpec(channel: 1, text: String(repeating: "q", count: 158)), 5, "backlog.text: 165 bytes; a channel message's \"Q 2: <text>\" is at most 160 bytes in UTF-8"),
    ] as [(BacklogSpec, Int, String)])
    func badBacklogsSayWhy(backlog: BacklogSpec, contacts: Int, message: String) {
        #expect {
            _ = try scenario(contacts: contacts, backlog).state()
        } throws: { error in
            "\(error)" == message
        }
    }
}
