import Foundation
import MeshportTestSupport
import Testing

/// `meshport chat` on a pseudo-terminal: history, messages arriving while it runs, /commands,
/// sending what is typed, /quit.
@Suite(.timeLimit(.minutes(1))) struct CLIChatTests {
    /// Alpha's first DM waits in the queue; the second arrives a few seconds after the sim
    /// starts (while chat runs, or, on a slow machine, before: then it is history).
    static let scenario = #"""
        {"nodes": [{"id": "a", "name": "Alpha", "knownPath": true}, {"id": "b", "name": "Bravo"}],
         "events": [{"at": 0, "dm": {"from": "a", "text": "waiting since before"}},
                    {"at": 3, "dm": {"from": "a", "text": "are you there now?"}}]}
        """#

    @Test(arguments: Link.allCases) func historyIncomingMessagesAndQuit(link: Link) async throws {
        let world = try await CLIWorld(link, scenario: Self.scenario)
        let chat = try PtyProcess(["chat", "--radio", world.radio, "--to", "Alpha"], environment: world.environment)
        #expect(await chat.waitFor("talking to @Alpha"), "\(chat.text)")
        #expect(await chat.waitFor("from Alpha: waiting since before"), "history: \(chat.text)")
        #expect(await chat.waitFor("from Alpha: are you there now?"), "incoming: \(chat.text)")
        chat.type("/contacts")
        #expect(await chat.waitFor("Bravo (chat, flood)"), "\(chat.text)")
        chat.type("/nonsense")
        #expect(await chat.waitFor("unknown command /nonsense; /help lists them"), "\(chat.text)")
        chat.type("/quit")
        #expect(await chat.waitForExit() == 0, "\(chat.text)")
    }

    /// DMs arriving while chat connects, reads its history and starts listening: each one is
    /// shown once, in the history or live, none lost between the two.
    @Test func messagesArrivingWhileChatStartsAreEachShownOnce() async throws {
        let burst = (1...12).map { #"{"at": \#(0.25 * Double($0)), "dm": {"from": "a", "text": "burst \#($0) end"}}"# }
        let scenario = #"{"nodes": [{"id": "a", "name": "Alpha", "knownPath": true}], "events": ["# + burst.joined(separator: ", ") + "]}"
        let world = try await CLIWorld(.tcp, scenario: scenario)
        let chat = try PtyProcess(["chat", "--radio", world.radio, "--to", "Alpha", "--history", "50"], environment: world.environment)
        #expect(await chat.waitFor("burst 12 end"), "\(chat.text)")
        for n in 1...12 {
            #expect(chat.text.components(separatedBy: "burst \(n) end").count == 2, "burst \(n): \(chat.text)")
        }
        chat.type("/quit")
        #expect(await chat.waitForExit() == 0, "\(chat.text)")
    }

    @Test(arguments: Link.allCases)
    func typedMessagesAreSentAndDelivered(link: Link) async throws {
        let world = try await CLIWorld(link, scenario: Self.scenario)
        let chat = try PtyProcess(["chat", "--radio", world.radio, "--to", "Alpha"], environment: world.environment)
        #expect(await chat.waitFor("talking to @Alpha"), "\(chat.text)")
        chat.type("hello from the test")
        #expect(await chat.waitFor("to Alpha: hello from the test"), "\(chat.text)")
        #expect(await chat.waitFor("delivered: \"hello from the test\" to @Alpha"), "\(chat.text)")
        chat.type("/channel 0")
        #expect(await chat.waitFor("talking to #0 Public"), "\(chat.text)")
        chat.type("hello channel")
        #expect(await chat.waitFor("#0 Public"), "\(chat.text)")
        chat.type("/quit")
        #expect(await chat.waitForExit() == 0, "\(chat.text)")
        // What was sent is in the history.
        #expect(try await world.searchTexts("hello") == ["hello channel", "hello from the test"])
    }
}
