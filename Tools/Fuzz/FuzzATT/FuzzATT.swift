import MeshBLE
import MeshportFuzzSupport

/// libFuzzer entry: the input is a server's side of an ATT bearer, as length-prefixed PDUs.
/// Each must decode and encode back to a PDU that decodes the same; then the GATT client runs
/// the discovery a `ble://` link does (MTU, the companion service, its characteristics and
/// descriptors, a read and a write) against a server answering each request with the next
/// PDUs of the input, unsolicited ones (notifications, its own requests) included. Whatever
/// the answers, the client must not trap and every procedure must end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATT(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    var script: [[UInt8]] = []
    while !input.isEmpty { script.append(input.chunk()) }
    for bytes in script { checkRoundTrip(bytes) }
    let server = FuzzedServer(script)
    FuzzThread.run { await discover(server) }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzATTInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    FuzzThread.install()
    return 0
}

private func checkRoundTrip(_ bytes: [UInt8]) {
    guard let pdu = try? ATTPDU(bytes) else { return }
    guard let again = try? ATTPDU(pdu.bytes), again == pdu else {
        fuzzFinding("ATT PDU round trip differs: \(fuzzHex(bytes)) encodes as \(fuzzHex(pdu.bytes))")
    }
}

private func discover(_ server: FuzzedServer) async {
    let client = GATTClient(peer: "F0:00:00:00:00:01", timeout: .seconds(5)) { pdu in await server.received(pdu) }
    await server.attach(client)
    let mtu = (try? await client.exchangeMTU()) ?? 23
    guard (23...247).contains(mtu) else { fuzzFinding("ATT MTU \(mtu) outside 23...247") }
    guard let service = try? await client.primaryService(.nus) else { return }
    let characteristics = (try? await client.characteristics(of: service)) ?? []
    for characteristic in characteristics {
        _ = try? await client.descriptors(of: characteristic)
        _ = try? await client.read(characteristic.value)
        try? await client.write(characteristic.value, [1, 2, 3], withResponse: characteristic.canWrite)
    }
    await client.close(.bearer("the fuzz run ended"))
}

/// The far side: answers each request with the script's next PDUs, up to one that a client
/// takes as the response; with the script used up, the bearer closes.
private actor FuzzedServer {
    private var script: [[UInt8]]
    private weak var client: GATTClient?

    init(_ script: [[UInt8]]) { self.script = script }

    func attach(_ client: GATTClient) { self.client = client }

    func received(_ pdu: [UInt8]) async {
        // The client's own answers (confirmations, error responses) wait for nothing.
        guard let client, let opcode = pdu.first, Self.requests.contains(opcode) else { return }
        while !script.isEmpty {
            let answer = script.removeFirst()
            await client.receive(answer)
            if let first = answer.first, Self.responses.contains(first), (try? ATTPDU(answer)) != nil { return }
        }
        await client.close(.bearer("the fuzzed server has no more answers"))
    }

    private static let requests: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x10, 0x12]
    private static let responses: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x11, 0x13]
}
