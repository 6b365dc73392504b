// A process that connects to a broker with a last will and then only waits, for the test that
// kills it with SIGKILL and expects the broker to publish the will (MeshMQTTTests).
// Usage: MeshportTestMQTTWill BROKER_URL WILL_TOPIC WILL_TEXT
import Foundation
import MeshMQTT

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: MeshportTestMQTTWill BROKER_URL WILL_TOPIC WILL_TEXT\n".utf8))
    exit(2)
}
do {
    let broker = try MQTTBrokerURL(parsing: arguments[1])
    let will = MQTTMessage(topic: arguments[2], text: arguments[3], qos: .atLeastOnce)
    let client = try MQTTClient(broker: broker, options: MQTTClientOptions(clientID: "will-\(getpid())", will: will))
    await client.start()
    for await state in await client.stateUpdates() {
        switch state {
        case .connected:
            FileHandle.standardOutput.write(Data("connected\n".utf8))
        case .waiting(let error, _):
            FileHandle.standardError.write(Data("\(error)\n".utf8))
        case .idle, .connecting, .closed:
            break
        }
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
